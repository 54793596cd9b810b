#!/usr/bin/env bash
# make k8s-check: the Kubernetes manifests against a real Kubernetes, on one machine, offline.
#   1. Kubernetes 1.20.2 (kube-apiserver, kube-controller-manager, kube-scheduler, kubelet,
#      kube-proxy) built once from Debian bookworm's source package into .tmp/k8s/bin
#      (scripts/deploy/k8s-build.sh, ~11 min cold, reused after), etcd from Debian's etcd-server;
#   2. etcd and kube-apiserver on loopback, on free ports; both overlays rendered with the host's
#      kubectl kustomize and sent with `kubectl apply --dry-run=server` (server-side validation
#      and admission). The objects whose API version 1.20 does not serve (HPA autoscaling/v2,
#      PDB policy/v1, CronJob batch/v1) are left out, and only those: any other object the
#      server does not know fails the check. They stay schema-checked against 1.32 by
#      kubernetes-validate (make deploy-check);
#   3. the dev overlay rolled out for real: a dockerd of our own (scripts/deploy/engine.sh; its
#      default network on a bridge this script creates, k8schk0, no docker firewall rules) with
#      the runc-nooom wrapper (kubelet's sandboxes ask for a negative oom_score_adj, which this
#      machine's root may not set), the real images built as make deploy-live builds them
#      (production Dockerfiles, host release binaries, host OCR models) tagged with the overlay's
#      image names, a hostPath PersistentVolume under .tmp for the claim, then kubelet
#      (dockershim), controller-manager, scheduler and kube-proxy (iptables mode). Checked: every
#      Deployment rolled out, its pods Ready with no restart after the liveness probe has run,
#      uid 10001 with a read-only root, the claim Bound, mounted at /data and writable (the file
#      appears in the PV's directory on the host), and each Service answering GET /health on its
#      ClusterIP from the host (through kube-proxy's iptables rules);
#   4. everything stopped by PID (a trap, also on failure): pods' containers, dockerd, the bridge,
#      kubelet's and kube-proxy's iptables chains, the mounts under .tmp, the kubepods cgroups,
#      /var/log/pods, and the kernel settings kubelet and kube-proxy change are put back. The
#      check fails when any of those is left behind.
# Fails with one line naming the step. Usage: scripts/deploy/k8s-check.sh [ROLLOUT_OVERLAY]
# (default deploy/kubernetes/overlays/dev; another path proves the check fails, docs/deploy.md);
# K8S_ROLLOUT_TIMEOUT: the seconds each Deployment has to become available (180).
# Expects `cargo build --release --bins` to have run (CARGO_TARGET_DIR is honoured). One kubelet
# per machine: never run two at once (it refuses to start when KUBE-* rules or kubepods exist).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
started=$(date +%s)
rollout_overlay=${1:-deploy/kubernetes/overlays/dev}
k8s=""
rollout_timeout=${K8S_ROLLOUT_TIMEOUT:-180}

fail() {
  echo "k8s-check: FAILED: $*" >&2
  exit 1
}
step() { printf '\nk8s-check: %s (%ss)\n' "$*" "$(($(date +%s) - started))"; }

[ "$(id -u)" -eq 0 ] || fail "run as root (it starts dockerd and kubelet)"
[ -d "$rollout_overlay" ] || fail "no overlay at $rollout_overlay"
bin=${CARGO_TARGET_DIR:-$root/target}/release
for b in ingredient-api digest-web digest-refresh; do
  [ -x "$bin/$b" ] || fail "$bin/$b missing; run cargo build --release --bins"
done
command -v kubectl >/dev/null || fail "kubectl not found (the host's kubectl renders the overlays)"
scripts/setup/install-deps.sh k8s || fail "installing the Debian packages failed"

step "Kubernetes 1.20.2 binaries (built once into .tmp/k8s/bin)"
build_started=$(date +%s)
k8s=$(scripts/deploy/k8s-build.sh | tail -n 1) || fail "building Kubernetes from Debian's source package"
echo "  $k8s ($(($(date +%s) - build_started)) s)"

# shellcheck source=scripts/deploy/engine.sh
source scripts/deploy/engine.sh

work=$root/.tmp/k8s-check
run=$work/run
bridge=k8schk0
pod_cidr=10.244.73.0/24
pod_gw=10.244.73.1
service_cidr=10.96.0.0/24

# What the host had before, to check (and restore) at the end.
sysctls="vm/overcommit_memory vm/panic_on_oom kernel/panic kernel/panic_on_oops kernel/keys/root_maxkeys
  kernel/keys/root_maxbytes net/ipv4/conf/all/route_localnet"
kube_chains() { { iptables-save 2>/dev/null; ip6tables-save 2>/dev/null; } | grep -c -- 'KUBE-' || true; }
[ "$(kube_chains)" = 0 ] || fail "the host's firewall already has KUBE-* rules (another kubelet or kube-proxy?)"
ls -d /sys/fs/cgroup/*/kubepods >/dev/null 2>&1 && fail "kubepods cgroups exist already (another kubelet running?)"
ip link show "$bridge" >/dev/null 2>&1 && fail "bridge $bridge exists (an earlier run left it, or one is running)"
if ip route | grep -q '^10\.244\.73\.'; then fail "$pod_cidr is routed already"; fi
[ -e /var/log/pods ] && had_pod_logs=1 || had_pod_logs=0
[ -e /var/log/containers ] && had_container_logs=1 || had_container_logs=0
# kubelet's device manager always uses /var/lib/kubelet/device-plugins, whatever --root-dir says.
[ -e /var/lib/kubelet ] && had_var_lib_kubelet=1 || had_var_lib_kubelet=0

rm -rf "$run"
mkdir -p "$run/pv-digest-web-data"
declare -A sysctl_before
for s in $sysctls; do sysctl_before[$s]=$(cat "/proc/sys/$s"); done

pids=()   # "name:pid", stopped in reverse order
bg() {    # name command... : a component in its own session, logs in $run/name.log
  local name=$1
  shift
  setsid "$@" >"$run/$name.log" 2>&1 </dev/null &
  pids+=("$name:$!")
}
stop_pid() { # name pid
  local name=$1 pid=$2 i
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  echo "k8s-check: $name ($pid) did not stop in 10 s: killing it" >&2
  kill -KILL "$pid" 2>/dev/null || true
}

# Removes every jump to a KUBE-* chain, then the chains, in every table (iptables and ip6tables).
drop_kube_chains() {
  local tool table rule chain
  for tool in iptables ip6tables; do
    for table in filter nat mangle raw; do
      "$tool-save" -t "$table" 2>/dev/null | grep -E -- '^-A [A-Z]+ .*-j KUBE-' | while read -r rule; do
        # shellcheck disable=SC2086 # a saved rule is split into its arguments
        eval "$tool -t $table ${rule/-A /-D }" 2>/dev/null || true
      done
      for chain in $("$tool-save" -t "$table" 2>/dev/null | sed -n 's/^:\(KUBE-[^ ]*\) .*/\1/p'); do
        "$tool" -t "$table" -F "$chain" 2>/dev/null || true
      done
      for chain in $("$tool-save" -t "$table" 2>/dev/null | sed -n 's/^:\(KUBE-[^ ]*\) .*/\1/p'); do
        "$tool" -t "$table" -X "$chain" 2>/dev/null || true
      done
    done
  done
}

cleanup() {
  local rc=$? i entry s m d
  trap - EXIT INT TERM
  set +e
  [ "$rc" -ne 0 ] && echo "k8s-check: logs in $run" >&2
  # kube-proxy first, so its --cleanup removes its own rules; then kubelet (before dockerd, or it
  # starts the pods again), the control plane, etcd.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    entry=${pids[$i]}
    stop_pid "${entry%%:*}" "${entry#*:}"
  done
  [ -x "$k8s/kube-proxy" ] && "$k8s/kube-proxy" --cleanup --proxy-mode=iptables >"$run/kube-proxy-cleanup.log" 2>&1
  engine_stop || rc=1
  # kubelet's volume mounts (tmpfs of emptyDirs and tokens) and anything else under the run dir.
  for m in $(findmnt -rn -o TARGET 2>/dev/null | grep -F "$work/" | sort -r); do umount -l "$m" || rc=1; done
  drop_kube_chains
  if [ "$(kube_chains)" != 0 ]; then echo "k8s-check: KUBE-* firewall rules left behind" >&2; rc=1; fi
  for s in $sysctls; do
    [ -n "${sysctl_before[$s]:-}" ] && [ "$(cat "/proc/sys/$s")" != "${sysctl_before[$s]}" ] &&
      echo "${sysctl_before[$s]}" >"/proc/sys/$s"
  done
  for d in /sys/fs/cgroup/*/kubepods; do
    [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} + 2>/dev/null
    if [ -d "$d" ]; then echo "k8s-check: cgroup $d left behind" >&2; rc=1; fi
  done
  [ "$had_pod_logs" = 0 ] && rm -rf /var/log/pods
  [ "$had_container_logs" = 0 ] && rm -rf /var/log/containers
  [ "$had_var_lib_kubelet" = 0 ] && rm -rf /var/lib/kubelet
  if ip link show "$bridge" >/dev/null 2>&1; then ip link del "$bridge" || rc=1; fi
  for entry in "${pids[@]}"; do
    if kill -0 "${entry#*:}" 2>/dev/null; then echo "k8s-check: ${entry%%:*} still running" >&2; rc=1; fi
  done
  if [ "$rc" -eq 0 ]; then
    printf '\nk8s-check: stopped and cleaned up (%ss)\n' "$(($(date +%s) - started))"
  else
    echo "k8s-check: FAILED (see above; logs in $run)" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT INT TERM

read -r p_etcd p_peer p_api p_kcm p_sched p_kubelet p_kubelet_health p_proxy_metrics p_proxy_health < <(
  python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(9)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
)

step "etcd (Debian etcd-server) and kube-apiserver on 127.0.0.1:$p_api"
cd "$run"
openssl genrsa -out sa.key 2048 2>/dev/null && openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=k8s-check-ca 2>/dev/null
node=$(hostname)
cat >tokens.csv <<EOF
$(openssl rand -hex 16),admin,1,system:masters
$(openssl rand -hex 16),system:kube-controller-manager,2
$(openssl rand -hex 16),system:kube-scheduler,3
$(openssl rand -hex 16),system:node:$node,4,system:nodes
$(openssl rand -hex 16),system:kube-proxy,5
EOF
kubeconfig() { # name token
  printf 'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:%s", insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: %s}\ncontexts:\n- name: c\n  context: {cluster: c, user: u}\ncurrent-context: c\n' \
    "$p_api" "$2" >"$1.kubeconfig"
}
i=0
for name in admin kcm sched node proxy; do
  i=$((i + 1))
  kubeconfig "$name" "$(sed -n "${i}p" tokens.csv | cut -d, -f1)"
done
cd "$root"
export KUBECONFIG=$run/admin.kubeconfig

bg etcd etcd --name k8s-check --data-dir "$run/etcd-data" \
  --listen-client-urls "http://127.0.0.1:$p_etcd" --advertise-client-urls "http://127.0.0.1:$p_etcd" \
  --listen-peer-urls "http://127.0.0.1:$p_peer" --initial-advertise-peer-urls "http://127.0.0.1:$p_peer" \
  --initial-cluster "k8s-check=http://127.0.0.1:$p_peer"
bg apiserver "$k8s/kube-apiserver" --etcd-servers="http://127.0.0.1:$p_etcd" --bind-address=127.0.0.1 \
  --advertise-address=127.0.0.1 --secure-port="$p_api" --insecure-port=0 --cert-dir="$run/certs" \
  --token-auth-file="$run/tokens.csv" --authorization-mode=Node,RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$run/sa.pub" --service-account-signing-key-file="$run/sa.key" \
  --service-cluster-ip-range="$service_cidr" --enable-admission-plugins=NodeRestriction
api_started=$(date +%s)
for _ in $(seq 1 240); do kubectl get --raw /readyz >/dev/null 2>&1 && break; sleep 0.5; done
kubectl get --raw /readyz >/dev/null 2>&1 || fail "kube-apiserver not ready after 120 s (log: $run/apiserver.log)"
api_ready_s=$(($(date +%s) - api_started))
echo "  ready in $api_ready_s s: $(kubectl version -o json 2>/dev/null | jq -r .serverVersion.gitVersion)"

step "kubectl apply --dry-run=server of both overlays"
served=$run/served.txt
# group/version kind, for every resource the server serves.
kubectl get --raw /api/v1 | jq -r '.resources[] | "v1 \(.kind)"' >"$served"
for gv in $(kubectl get --raw /apis | jq -r '.groups[].versions[].groupVersion'); do
  kubectl get --raw "/apis/$gv" | jq -r --arg gv "$gv" '.resources[] | "\($gv) \(.kind)"' >>"$served"
done
filter() { # rendered.yaml kept.yaml -> prints the left-out objects; fails on an unexpected one
  python3 - "$served" "$1" "$2" <<'EOF'
import sys
import yaml
served = {tuple(line.split()) for line in open(sys.argv[1]) if line.strip()}
docs = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d]
# What Kubernetes 1.20 cannot serve; kubernetes-validate (make deploy-check) checks them.
expected = {("autoscaling/v2", "HorizontalPodAutoscaler"), ("policy/v1", "PodDisruptionBudget"),
            ("batch/v1", "CronJob")}
kept, left = [], []
for d in docs:
    key = (d["apiVersion"], d["kind"])
    (kept if key in served else left).append(d)
unexpected = [f"{a} {k}" for a, k in {(d["apiVersion"], d["kind"]) for d in left} - expected]
if unexpected:
    sys.exit(f"not served by the API server and not expected: {', '.join(sorted(unexpected))}")
yaml.safe_dump_all(kept, open(sys.argv[3], "w"), sort_keys=False)
for d in left:
    print(f"{d['apiVersion']} {d['kind']}/{d['metadata']['name']}")
EOF
}
for overlay in deploy/kubernetes/overlays/dev deploy/kubernetes/overlays/production; do
  name=$(basename "$overlay")
  kubectl kustomize "$overlay" >"$run/$name.yaml" || fail "kubectl kustomize $overlay"
  left=$(filter "$run/$name.yaml" "$run/$name.served.yaml") || fail "$overlay: objects the server does not serve"
  for ns in $(grep -E '^  namespace: ' "$run/$name.served.yaml" | awk '{print $2}' | sort -u); do
    kubectl get namespace "$ns" >/dev/null 2>&1 || kubectl create namespace "$ns" >/dev/null
  done
  out=$(kubectl apply --dry-run=server -f "$run/$name.served.yaml" 2>&1) || {
    echo "$out" >&2
    fail "kubectl apply --dry-run=server refused the $name overlay"
  }
  echo "$out" | sed '/version difference/d; s/^/  /'
  echo "  $name: $(grep -c ' (server dry run)' <<<"$out") objects accepted by the server; left out (Kubernetes 1.20 does not serve their API version, kubernetes-validate --strict checks them against 1.32 in make deploy-check):"
  echo "$left" | sed 's/^/    /'
done

step "dockerd (Debian docker.io, runc-nooom runtime) on bridge $bridge ($pod_cidr)"
ip link add "$bridge" type bridge
ip addr add "$pod_gw/24" dev "$bridge"
ip link set "$bridge" up
cat >"$work/runc-nooom" <<'EOF'
#!/bin/sh
# runc wrapper: this machine's root lacks CAP_SYS_RESOURCE, so a negative oom_score_adj (kubelet's
# pod sandboxes ask for -998, Guaranteed pods for -997) makes runc init fail with "can't get final
# child's PID from pipe: EOF". Negative values become 0, then runc runs.
bundle=""; prev=""
for a in "$@"; do
  case "$prev" in --bundle|-b) bundle=$a ;; esac
  case "$a" in --bundle=*) bundle=${a#--bundle=} ;; esac
  prev=$a
done
if [ -n "$bundle" ] && [ -f "$bundle/config.json" ] && grep -q '"oomScoreAdj":-' "$bundle/config.json"; then
  /usr/bin/python3 -c '
import json, sys
p = sys.argv[1]; c = json.load(open(p))
if c.get("process", {}).get("oomScoreAdj", 0) < 0: c["process"]["oomScoreAdj"] = 0
json.dump(c, open(p, "w"))' "$bundle/config.json"
fi
exec /usr/bin/runc "$@"
EOF
chmod +x "$work/runc-nooom"
ENGINE_BRIDGE=$bridge engine_start "$work/engine" --add-runtime "nooom=$work/runc-nooom" \
  --default-runtime nooom || fail "dockerd did not start"

step "images: ingredient-api, digest-web (as make deploy-live builds them), pause"
project_base_image || fail "the debian:bookworm-slim base image"
host_service_images "$bin" "$run" || fail "building the service images"
tar -C "$k8s" -cf - pause | "$DOCKER" import -c 'ENTRYPOINT ["/pause"]' - k8s.gcr.io/pause:3.2 >/dev/null
# The overlay's image names (IfNotPresent: nothing is pulled).
kubectl kustomize "$rollout_overlay" >"$run/rollout.yaml" || fail "kubectl kustomize $rollout_overlay"
for svc in ingredient-api digest-web; do
  ref=$(awk -v s="/$svc:" '$1 == "image:" && index($2, s) {print $2; exit}' "$run/rollout.yaml")
  [ -n "$ref" ] || fail "no $svc image in $rollout_overlay"
  "$DOCKER" tag "$svc:local" "$ref"
  echo "  $svc:local tagged $ref"
done

step "kube-controller-manager, kube-scheduler, kubelet, kube-proxy"
bg kcm "$k8s/kube-controller-manager" --kubeconfig="$run/kcm.kubeconfig" \
  --authentication-kubeconfig="$run/kcm.kubeconfig" --authorization-kubeconfig="$run/kcm.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$p_kcm" --port=0 --leader-elect=false \
  --use-service-account-credentials=true --service-account-private-key-file="$run/sa.key" \
  --root-ca-file="$run/ca.crt" --cluster-signing-cert-file="$run/ca.crt" --cluster-signing-key-file="$run/ca.key" \
  --controllers='*,-nodeipam,-route,-cloud-node-lifecycle,-service'
bg sched "$k8s/kube-scheduler" --kubeconfig="$run/sched.kubeconfig" \
  --authentication-kubeconfig="$run/sched.kubeconfig" --authorization-kubeconfig="$run/sched.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$p_sched" --port=0 --leader-elect=false
cat >"$run/kubelet-config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 127.0.0.1
port: $p_kubelet
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $p_kubelet_health
authentication: {anonymous: {enabled: false}, webhook: {enabled: false}}
authorization: {mode: AlwaysAllow}
cgroupDriver: cgroupfs
failSwapOn: false
evictionHard: {"memory.available": "100Mi", "nodefs.available": "1%", "imagefs.available": "1%"}
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
EOF
node_started=$(date +%s)
bg kubelet "$k8s/kubelet" --kubeconfig="$run/node.kubeconfig" --config="$run/kubelet-config.yaml" \
  --root-dir="$run/kubelet" --cert-dir="$run/kubelet/pki" --container-runtime=docker \
  --docker-endpoint="$DOCKER_HOST" --pod-infra-container-image=k8s.gcr.io/pause:3.2 \
  --experimental-dockershim-root-directory="$run/dockershim"
bg proxy "$k8s/kube-proxy" --kubeconfig="$run/proxy.kubeconfig" --proxy-mode=iptables \
  --hostname-override="$node" --cluster-cidr="$pod_cidr" --bind-address=127.0.0.1 \
  --metrics-bind-address="127.0.0.1:$p_proxy_metrics" --healthz-bind-address="127.0.0.1:$p_proxy_health" \
  --conntrack-max-per-core=0 --conntrack-tcp-timeout-established=0 --conntrack-tcp-timeout-close-wait=0
for _ in $(seq 1 240); do kubectl get "node/$node" >/dev/null 2>&1 && break; sleep 0.5; done
kubectl wait --for=condition=Ready "node/$node" --timeout=120s >/dev/null ||
  fail "node $node not Ready (log: $run/kubelet.log)"
node_ready_s=$(($(date +%s) - node_started))
echo "  node $node Ready in $node_ready_s s"

step "rollout of $rollout_overlay (with a hostPath PersistentVolume for the claim)"
chown 10001:10001 "$run/pv-digest-web-data"
chmod 0750 "$run/pv-digest-web-data"
claim_size=$(python3 -c '
import sys, yaml
for d in yaml.safe_load_all(sys.stdin):
    if d and d["kind"] == "PersistentVolumeClaim":
        print(d["spec"]["resources"]["requests"]["storage"])' <"$run/rollout.yaml")
[ -n "$claim_size" ] || fail "no PersistentVolumeClaim in $rollout_overlay"
kubectl apply -f - >/dev/null <<EOF
apiVersion: v1
kind: PersistentVolume
metadata: {name: k8s-check-digest-web-data}
spec:
  capacity: {storage: $claim_size}
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Retain
  hostPath: {path: "$run/pv-digest-web-data", type: Directory}
EOF
filter "$run/rollout.yaml" "$run/rollout.served.yaml" >/dev/null || fail "$rollout_overlay: objects the server does not serve"
rollout_started=$(date +%s)
kubectl apply -f "$run/rollout.served.yaml" | sed 's/^/  /'
ns=$(awk '$1 == "namespace:" {print $2; exit}' "$run/rollout.served.yaml")
deployments=$(kubectl -n "$ns" get deployments -o jsonpath='{.items[*].metadata.name}')
for d in $deployments; do
  kubectl -n "$ns" rollout status "deployment/$d" --timeout="${rollout_timeout}s" >"$run/rollout-$d.log" 2>&1 || {
    kubectl -n "$ns" get pods -o wide >&2
    kubectl -n "$ns" get events --sort-by=.lastTimestamp 2>/dev/null | tail -n 15 >&2
    fail "deployment/$d did not become available in $rollout_timeout s (readiness probe or start failed)"
  }
done
ready_s=$(($(date +%s) - rollout_started))
echo "  every Deployment available ($deployments): pods Ready ${ready_s} s after kubectl apply"

step "probes: no restart once the liveness probe has run (initialDelay + period)"
wait_s=$(kubectl -n "$ns" get pods -o json | jq '[.items[].spec.containers[].livenessProbe
  | select(.) | (.initialDelaySeconds // 0) + (.periodSeconds // 10)] | max // 0')
sleep "$((wait_s + 2))"
kubectl -n "$ns" get pods -o json | jq -r '.items[] | "\(.metadata.name) \(
  [.status.conditions[] | select(.type == "Ready") | .status][0]) \(
  [.status.containerStatuses[].restartCount] | add) \(.spec.nodeName)"' >"$run/pods.txt"
while read -r pod ready restarts on; do
  echo "  $pod: Ready=$ready restarts=$restarts node=$on"
  [ "$ready" = True ] || fail "$pod is not Ready"
  [ "$restarts" = 0 ] || fail "$pod restarted $restarts times (liveness probe failing?)"
done <"$run/pods.txt"
unhealthy=$(kubectl -n "$ns" get events --field-selector reason=Unhealthy -o name | wc -l)
echo "  Unhealthy probe events: $unhealthy"

step "containers: uid 10001, read-only root, the claim mounted at /data and writable"
container_of() { # deployment -> docker id of its app container
  "$DOCKER" ps -q --filter "label=io.kubernetes.pod.namespace=$ns" \
    --filter "label=io.kubernetes.container.name=$1" | head -n 1
}
for d in $deployments; do
  c=$(container_of "$d")
  [ -n "$c" ] || fail "no running container for $d"
  [ "$("$DOCKER" exec "$c" id -u)" = 10001 ] || fail "$d does not run as uid 10001"
  if "$DOCKER" exec "$c" touch /probe 2>/dev/null; then fail "$d: the root filesystem is writable"; fi
  echo "  $d: uid 10001, read-only root"
done
phase=$(kubectl -n "$ns" get pvc digest-web-data -o jsonpath='{.status.phase} {.spec.volumeName}')
[ "$phase" = "Bound k8s-check-digest-web-data" ] || fail "the claim digest-web-data is not bound to the PV: $phase"
c=$(container_of digest-web)
"$DOCKER" exec "$c" sh -c 'echo k8s-check >/data/.k8s-check-probe' || fail "/data is not writable in digest-web"
[ "$(cat "$run/pv-digest-web-data/.k8s-check-probe" 2>/dev/null)" = k8s-check ] ||
  fail "the file written to /data is not in the PersistentVolume's directory"
echo "  digest-web-data Bound; /data writable, the file is in the PV on the host ($(ls -A "$run/pv-digest-web-data" | tr '\n' ' '))"

step "Services answer on their ClusterIP (from the host, through kube-proxy's iptables rules)"
kubectl -n "$ns" get services -o json |
  jq -r '.items[] | "\(.metadata.name) \(.spec.clusterIP) \(.spec.ports[0].port)"' >"$run/services.txt"
[ -s "$run/services.txt" ] || fail "no Service in $ns"
while read -r svc ip port; do
  eps=$(kubectl -n "$ns" get endpoints "$svc" -o jsonpath='{.subsets[*].addresses[*].ip}')
  [ -n "$eps" ] || fail "Service $svc has no endpoints"
  body=""
  for _ in $(seq 1 40); do
    body=$(curl -sS --fail --max-time 5 "http://$ip:$port/health" 2>/dev/null) && break
    sleep 0.5
  done
  [ -n "$body" ] || fail "Service $svc did not answer GET http://$ip:$port/health"
  echo "  $svc: http://$ip:$port/health -> 200 $(head -c 80 <<<"$body") (endpoints $eps)"
done <"$run/services.txt"

total=$(($(date +%s) - started))
step "all k8s-check checks passed: API server ready in $api_ready_s s, node Ready in $node_ready_s s, pods Ready $ready_s s after apply, $total s in all"
