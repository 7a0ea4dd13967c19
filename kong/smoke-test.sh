#!/usr/bin/env bash
# Smoke test of the Docker deployment: Kong with the flowgate plugin, the runner and PostgreSQL, serving the
# example. Needs Docker with Compose; Flowgate's CI cannot run it (no Docker engine there).
set -euo pipefail
cd "$(dirname "$0")"
compose() { docker compose -f docker-compose.yml "$@"; }
trap 'compose down -v >/dev/null 2>&1 || true' EXIT

compose up -d --build
proxy=http://127.0.0.1:8000
key=fg_demo_reporting_key_0123456789abcdef

for attempt in $(seq 1 60); do
  status=$(curl -s -o /dev/null -w '%{http_code}' -H 'Host: acme.flowgate.localhost' "$proxy/reports/revenue/annual/2024" || true)
  [ "$status" = 401 ] && break
  [ "$attempt" = 60 ] && { echo "Kong did not answer 401 for an unauthenticated call (last: $status)"; compose logs; exit 1; }
  sleep 2
done

failed=0
check() { # name expected actual
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: expected $2, got $3"; failed=1; fi
}
header() { tr -d '\r' | grep -i "^$1:" | tr 'A-Z' 'a-z'; }
check "API key call" '{"year":"2024","total":2115000,"currency":"USD"}' \
  "$(curl -s -H 'Host: acme.flowgate.localhost' -H "Authorization: Bearer $key" "$proxy/reports/revenue/annual/2024")"
check "no service" "There is no service at this location." \
  "$(curl -s -H 'Host: acme.flowgate.localhost' "$proxy/nowhere")"
check "Basic challenge" 'www-authenticate: basic realm="acme", charset="utf-8"' \
  "$(curl -s -D - -o /dev/null -H 'Host: acme.flowgate.localhost' "$proxy/orders/1" | header www-authenticate)"
check "CORS preflight" "access-control-allow-origin: https://app.acme.example" \
  "$(curl -s -D - -o /dev/null -X OPTIONS -H 'Host: acme.flowgate.localhost' -H 'Origin: https://app.acme.example' -H 'Access-Control-Request-Method: GET' "$proxy/orders/1" | header access-control-allow-origin)"
check "anonymous, _profile=Test" '{"status":"ok","environment":"Test"}' \
  "$(curl -s -H 'Host: karoo.za.flowgate.localhost' "$proxy/status?_profile=Test")"
exit "$failed"
