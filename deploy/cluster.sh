#!/usr/bin/env bash
# Starts three Platen nodes on loopback, for a person to try a cluster on one
# machine: HTTP on 127.0.0.1:8081-8083, the cluster port on 8301-8303 and
# gossip on 7941-7943. State goes under ${CLUSTER_DIR:-./data/cluster}; the
# first start makes the cluster key there and prints the first API key and
# operator token (node 1's output, in node1.log). Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${CLUSTER_DIR:-./data/cluster}
mkdir -p "$dir"
bin=./bin/platen
[ -x "$bin" ] || go build -o "$bin" ./cmd/platen
[ -s "$dir/cluster.key" ] || { (umask 077; "$bin" cluster-key > "$dir/cluster.key"); }

pids=()
stop() { kill -TERM "${pids[@]}" 2>/dev/null || true; wait; }
trap stop INT TERM EXIT
for i in 1 2 3; do
  # Node 1's first start makes the cluster; every other start joins the
  # others (a restarted node must be told where its peers are).
  join=(--join "$(for j in 1 2 3; do [ "$j" = "$i" ] || printf '127.0.0.1:794%s,' "$j"; done)")
  [ "$i" = 1 ] && [ ! -s "$dir/node1/node-id" ] && join=()
  "$bin" serve --data-dir "$dir/node$i" --cluster-key-file "$dir/cluster.key" \
    --http 127.0.0.1:808$i --raft 127.0.0.1:830$i --gossip 127.0.0.1:794$i "${join[@]}" \
    >"$dir/node$i.log" 2>&1 &
  pids+=($!)
  [ "$i" = 1 ] && sleep 2
done
echo "three nodes: http://127.0.0.1:8081 http://127.0.0.1:8082 http://127.0.0.1:8083 (logs in $dir/node*.log)"
grep -h -A1 'shown once' "$dir/node1.log" 2>/dev/null || echo "(the first key and operator token were printed at the first start, in $dir/node1.log)"
wait
