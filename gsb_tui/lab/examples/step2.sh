# Step 2: the DeviceClass's selector, exactly as served; then look at the node's allocatable.
LAB_DIR=${LAB_DIR:-/root/gsb-dra}
kubectl get deviceclass gpu.example.com -o yaml
SELECTOR=$(kubectl get deviceclass gpu.example.com -o jsonpath='{.spec.selectors[0].cel.expression}')
printf 'deviceclass=%s\nselector=%s\n' gpu.example.com "$SELECTOR" > "$LAB_DIR/class.txt"
cat "$LAB_DIR/class.txt"
# DRA devices are not node numbers: nothing of gpu.example.com appears here.
kubectl get nodes -o jsonpath='{.items[0].status.allocatable}'; echo
