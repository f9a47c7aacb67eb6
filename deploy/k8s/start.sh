#!/bin/sh
# Starts a Platen node in a StatefulSet pod. Peers reach each other by the
# pods' stable DNS names through the headless service, so a pod that comes
# back with a new IP (or a whole cluster restarted at once) keeps its raft
# address. Pod 0's very first start makes the cluster; every other start
# joins the other pods.
set -eu
ordinal=${HOSTNAME##*-}
set_name=${PLATEN_SET:-platen}
peers_svc=${PLATEN_PEERS:-platen-peers}
data=${PLATEN_DATA_DIR:-/var/lib/platen/data}
self="${HOSTNAME}.${peers_svc}"
set -- serve --data-dir "$data" --http "0.0.0.0:8080" \
  --raft "0.0.0.0:8300" --raft-advertise "${self}:8300" --gossip "${POD_IP}:7946" \
  --cluster-key-file /etc/platen/cluster.key
peers=""
i=0
while [ "$i" -lt "${PLATEN_REPLICAS:-3}" ]; do
  [ "$i" = "$ordinal" ] || peers="${peers:+$peers,}${set_name}-$i.${peers_svc}:7946"
  i=$((i + 1))
done
join=yes
if [ "$ordinal" = 0 ] && [ ! -s "$data/node-id" ]; then
  # Pod 0 with an empty volume makes a new cluster only if no peer already
  # runs one (its volume may have been lost while the others ran).
  join=no
  i=1
  while [ "$i" -lt "${PLATEN_REPLICAS:-3}" ]; do
    if platen admin --url "http://${set_name}-$i.${peers_svc}:8080" --token "${PLATEN_OPERATOR_TOKEN:-}" cluster >/dev/null 2>&1; then
      join=yes
    fi
    i=$((i + 1))
  done
fi
[ "$join" = no ] || set -- "$@" --join "$peers"
exec platen "$@"
