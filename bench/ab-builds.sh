#!/bin/bash
# Two builds of parkd side by side on plate lookups (the handhelds' check-tickets by plate), for
# "no loss on the request path": each on its own copy of a bench store made by its own binary
# (bench/generate.ts; an older build refuses a newer store), servers pinned to core 0, wrk to core
# 1, rounds alternating in order. Prints each round's requests a second and the server's CPU time
# per request (utime + stime over the requests answered): on a shared machine whose throughput
# drifts, the CPU time per request is the steadier figure.
#
#   ROUNDS=10 SECS=4 [SCHEME=https] bench/ab-builds.sh BIN_A STORE_A BIN_B STORE_B
set -u
ROUNDS=${ROUNDS:-8}; SECS=${SECS:-5}; SCHEME=${SCHEME:-http}
A=$1; SA=$2; B=$3; SB=$4
W=$(mktemp -d); cp -r "$SA" $W/a; cp -r "$SB" $W/b
TA=$($A token create --name ab-a --scope permits:read --data-dir $W/a 2>/dev/null)
TB=$($B token create --name ab-b --scope permits:read --data-dir $W/b 2>/dev/null)
MODE=--http; [ "$SCHEME" = https ] && MODE=
taskset -c 0 $A serve $MODE --host 127.0.0.1 --port 18301 --data-dir $W/a --timezone Europe/Stockholm >/dev/null 2>&1 & PA=$!
taskset -c 0 $B serve $MODE --host 127.0.0.1 --port 18302 --data-dir $W/b --timezone Europe/Stockholm >/dev/null 2>&1 & PB=$!
trap 'kill $PA $PB 2>/dev/null; rm -rf $W' EXIT
sleep 4
mk() { cat > $W/$1.lua <<LUA
wrk.headers["Authorization"] = "Bearer $2"
wrk.headers["Accept"] = "application/json"
local L = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
local function plateOf(k)
  local n = math.floor(k / 1000)
  local a, b, c = math.floor(n / 676) % 26, math.floor(n / 26) % 26, n % 26
  return L:sub(a+1,a+1) .. L:sub(b+1,b+1) .. L:sub(c+1,c+1) .. string.format("%03d", k % 1000)
end
request = function()
  return wrk.format("GET", "/api/v1/attendants/check-tickets?registration_number=" .. plateOf(math.random(0, 299999)))
end
LUA
}
mk a $TA; mk b $TB
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
run() { local pid=$3; local c0=$(cpu $pid); local out=$(taskset -c 1 wrk -t1 -c32 -d${SECS}s -s $W/$1.lua $SCHEME://127.0.0.1:$2/ 2>/dev/null); local c1=$(cpu $pid); local n=$(echo "$out" | awk '/requests in/ {print $1}'); echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}'):$(echo "scale=1; ($c1-$c0)*10000/$n" | bc)"; }
run a 18301 $PA >/dev/null; run b 18302 $PB >/dev/null
for i in $(seq 1 $ROUNDS); do
  if [ $((i % 2)) = 1 ]; then ra=$(run a 18301 $PA); rb=$(run b 18302 $PB); else rb=$(run b 18302 $PB); ra=$(run a 18301 $PA); fi
  echo "$i a=${ra%%:*}/s ${ra##*:}us b=${rb%%:*}/s ${rb##*:}us cpu-ratio=$(echo "${ra##*:} / ${rb##*:}" | bc -l | cut -c1-5)"
done
