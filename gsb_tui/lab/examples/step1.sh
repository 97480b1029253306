# Step 1: read the ResourceSlices and write slices.txt.
LAB_DIR=${LAB_DIR:-/root/gsb-dra}
kubectl get resourceslices
kubectl get resourceslices -o yaml
DRIVER=$(kubectl get resourceslices -o jsonpath='{.items[0].spec.driver}')
SLICES="kubectl get resourceslices --field-selector spec.driver=$DRIVER"
NODE=$($SLICES -o jsonpath='{.items[0].spec.nodeName}')
DEVICES=$($SLICES -o jsonpath='{.items[*].spec.devices[*].name}' | wc -w)
MODEL=$($SLICES -o jsonpath='{.items[0].spec.devices[0].attributes.model.string}')
printf 'driver=%s\ndevices=%s\nnode=%s\nmodel=%s\n' "$DRIVER" "$DEVICES" "$NODE" "$MODEL" \
  > "$LAB_DIR/slices.txt"
cat "$LAB_DIR/slices.txt"
