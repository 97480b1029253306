# Step 8: after kubectl apply -f big.yaml, dra-big stays Pending; write the ledger.
LAB_DIR=${LAB_DIR:-/root/gsb-dra}
kubectl -n dra-lab get pods
kubectl -n dra-lab get resourceclaims
TOTAL=$(kubectl get resourceslices --field-selector spec.driver=gpu.example.com \
  -o jsonpath='{.items[*].spec.devices[*].name}' | wc -w)
# Distinct allocated devices: a shared claim's device once, pending claims not at all.
ALLOCATED=$(kubectl get resourceclaims -A -o jsonpath='{range .items[*]}{range .status.allocation.devices.results[*]}{.driver}/{.pool}/{.device}{"\n"}{end}{end}' \
  | grep '^gpu.example.com/' | sort -u | wc -l)
FREE=$((TOTAL - ALLOCATED))
PENDING=$(kubectl -n dra-lab get pods --field-selector status.phase=Pending,spec.nodeName= \
  -o jsonpath='{range .items[*]}"{.metadata.name}",{end}')
printf '{"allocated_devices": %d, "free_devices": %d, "pending_pods": [%s]}\n' \
  "$ALLOCATED" "$FREE" "${PENDING%,}" > "$LAB_DIR/report.json"
cat "$LAB_DIR/report.json"
