# Step 4: the claim stamped for dra-1, its allocated device and the variable the driver sets.
LAB_DIR=${LAB_DIR:-/root/gsb-dra}
CLAIM=$(kubectl -n dra-lab get pod dra-1 -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}')
DEVICE=$(kubectl -n dra-lab get resourceclaim "$CLAIM" -o jsonpath='{.status.allocation.devices.results[0].device}')
ENV_VAR="GPU_DEVICE_${DEVICE#gpu-}"
# On a real node the container shows it: kubectl -n dra-lab exec dra-1 -- env | grep GPU_DEVICE
printf '{"claim": "%s", "device": "%s", "env_var": "%s"}\n' "$CLAIM" "$DEVICE" "$ENV_VAR" \
  > "$LAB_DIR/claim.json"
cat "$LAB_DIR/claim.json"
