#!/bin/sh
# Starts a Platen node in a StatefulSet pod. Pod 0's first start makes the
# cluster; every other start joins the other pods through the headless
# service. Addresses are the pod's IP (POD_IP from the downward API).
set -eu
ordinal=${HOSTNAME##*-}
set -- serve --data-dir "${PLATEN_DATA_DIR:-/var/lib/platen/data}" \
  --http "0.0.0.0:8080" --raft "${POD_IP}:8300" --gossip "${POD_IP}:7946" \
  --cluster-key-file /etc/platen/cluster.key
peers=""
i=0
while [ "$i" -lt "${PLATEN_REPLICAS:-3}" ]; do
  [ "$i" = "$ordinal" ] || peers="${peers:+$peers,}${PLATEN_SET:-platen}-$i.${PLATEN_PEERS:-platen-peers}:7946"
  i=$((i + 1))
done
if [ "$ordinal" != 0 ] || [ -s "${PLATEN_DATA_DIR:-/var/lib/platen/data}/node-id" ]; then
  set -- "$@" --join "$peers"
fi
exec platen "$@"
