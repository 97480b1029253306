"""The DRA allocator, as kube-scheduler decides: can a pod get every device now, where, and
if not, why. One engine for every pane and command (`why`, `devices`, `match`, the ledger).

- nodes.py: the pod's own node filters, node selectors, where a slice reaches
- pools.py: pools as seen from one node (complete, current, valid)
- requests.py, capacity.py: what a claim asks, what a share takes
- search.py: the search with backtracking (upstream's incubating allocator)
- state.py: the allocated state, DeviceTaintRules applied
- scheduler.py: PreFilter and Filter for one pod over every node
- from_view.py: the inputs from a DraView

Each module names the upstream functions it mirrors (k8s.io/dynamic-resource-allocation
v0.36.3, k8s.io/kubernetes v1.36.3).
"""
