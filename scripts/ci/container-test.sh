#!/usr/bin/env bash
# Builds the unchanged Dockerfile with podman and runs the image as a locked-down container would
# run: read-only root, no capabilities. No registry is reachable here, so the two base images the
# Dockerfile names are STAND-INS assembled by this script and tagged with the Dockerfile's exact
# names (see docs/operations.md, "Container"):
#
#   rust:${RUST_VERSION}-slim-bookworm   debootstrap --variant=minbase bookworm + gcc, libc6-dev,
#                                        this machine's Rust toolchain and CA bundle
#   gcr.io/distroless/cc-debian12:nonroot  the same minbase + a "nonroot" user and group 65532
#
# The stand-ins are cached: built only when `podman image exists` says they are missing
# (CONTAINER_REBUILD_BASES=1 forces it). Checks: /readyz, the seed board answered on 0.0.0.0:8080
# (published to 127.0.0.1 only), uid 65532, the `healthcheck` subcommand, SIGTERM during a
# running 15 × 15 search (its answer arrives, exit 0 within the grace period), the image size.
#
#   bash scripts/ci/container-test.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
started=$(date +%s)

need=()
for tool in podman runc debootstrap curl; do command -v "$tool" >/dev/null || need+=("$tool"); done
if ((${#need[@]})); then
    echo "installing ${need[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc debootstrap curl >/dev/null
fi
# The sandbox cannot raise rlimits; crun refuses this machine's hybrid cgroups (hence runc).
conf=/etc/containers/containers.conf
if ! grep -qs '^default_ulimits = \[\]' "$conf"; then
    mkdir -p /etc/containers
    printf '[containers]\ndefault_ulimits = []\n' >>"$conf"
fi
pod() { podman --runtime runc --cgroup-manager=cgroupfs "$@"; }

rust_version=$(sed -n 's/^ARG RUST_VERSION=//p' Dockerfile)
builder_tag=$(sed -n 's/^FROM \(rust:\)\${RUST_VERSION}\(-slim-bookworm\) AS builder$/\1'"$rust_version"'\2/p' Dockerfile)
runtime_tag=$(sed -n 's/^FROM \(gcr.io[^ ]*\) AS runtime$/\1/p' Dockerfile)
[[ -n $builder_tag && -n $runtime_tag ]] || { echo "cannot read the FROM lines of the Dockerfile" >&2; exit 1; }
toolchain=$(rustc --print sysroot)
[[ $(rustc --version) == "rustc $rust_version "* ]] \
    || echo "note: this machine's rustc is $(rustc --version), the Dockerfile asks for $rust_version"

work=$(mktemp -d /tmp/container-test.XXXXXX)
name=minimax-move-ct-$$
cleanup() {
    pod rm -f "$name" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

minbase() { # $1: target directory
    if [[ ! -d /var/cache/minimax-move/minbase ]]; then
        mkdir -p /var/cache/minimax-move
        debootstrap --variant=minbase bookworm /var/cache/minimax-move/minbase.tmp \
            http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
            || { tail -20 "$work/debootstrap.log"; exit 1; }
        rm -rf /var/cache/minimax-move/minbase.tmp/var/cache/apt/archives/*.deb
        mv /var/cache/minimax-move/minbase.tmp /var/cache/minimax-move/minbase
    fi
    cp -a /var/cache/minimax-move/minbase "$1"
}

if [[ ${CONTAINER_REBUILD_BASES:-0} == 1 ]] || ! pod image exists "$builder_tag"; then
    echo "building the stand-in $builder_tag"
    minbase "$work/builder"
    chroot "$work/builder" sh -c 'apt-get install -y -qq --no-install-recommends gcc libc6-dev >/dev/null \
        && apt-get clean && rm -rf /var/lib/apt/lists/*'
    mkdir -p "$work/builder/usr/local/rust" "$work/builder/usr/local/cargo/bin" "$work/builder/etc/ssl/certs"
    cp -a "$toolchain/bin" "$toolchain/lib" "$work/builder/usr/local/rust/"
    cp /etc/ssl/certs/ca-certificates.crt "$work/builder/etc/ssl/certs/ca-certificates.crt"
    tar -C "$work/builder" -c . | pod import \
        --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
        --change 'ENV CARGO_HOME=/usr/local/cargo' \
        --change 'ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt' \
        - "$builder_tag" >/dev/null
    rm -rf "$work/builder"
fi
if [[ ${CONTAINER_REBUILD_BASES:-0} == 1 ]] || ! pod image exists "$runtime_tag"; then
    echo "building the stand-in $runtime_tag"
    minbase "$work/runtime"
    echo 'nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin' >>"$work/runtime/etc/passwd"
    echo 'nonroot:x:65532:' >>"$work/runtime/etc/group"
    mkdir -p "$work/runtime/home/nonroot" && chown 65532:65532 "$work/runtime/home/nonroot"
    tar -C "$work/runtime" -c . | pod import --change 'USER 65532' - "$runtime_tag" >/dev/null
    rm -rf "$work/runtime"
fi
bases_done=$(date +%s)

echo "building the Dockerfile"
# No --pull: the stand-ins are local. The build context excludes target/ (see .dockerignore).
pod build --pull=never -t minimax-move:container-test . >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; exit 1; }
built=$(date +%s)

size=$(pod image inspect minimax-move:container-test --format '{{.Size}}')
base_size=$(pod image inspect "$runtime_tag" --format '{{.Size}}')
echo "image size: $((size / 1024 / 1024)) MiB (runtime stand-in $((base_size / 1024 / 1024)) MiB, binary layer $(((size - base_size) / 1024 / 1024)) MiB)"
# The binary (about 12 MiB) is the only layer added to the base; 40 MiB allows for growth and
# still catches a build stage (a toolchain, sources, target/) leaking into the runtime image.
if ((size - base_size > 40 * 1024 * 1024)); then
    echo "FAIL: the image adds $(((size - base_size) / 1024 / 1024)) MiB to its base (limit 40 MiB)" >&2
    exit 1
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
pod run -d --name "$name" --read-only --cap-drop=ALL --security-opt no-new-privileges \
    -p "127.0.0.1:$port:8080" -e SHUTDOWN_GRACE_MS=10000 minimax-move:container-test >/dev/null
base=http://127.0.0.1:$port
for _ in $(seq 100); do
    curl -fsS "$base/readyz" >/dev/null 2>&1 && break
    sleep 0.1
done
fail() { echo "FAIL: $*" >&2; pod logs "$name" 2>&1 | tail -20 >&2; exit 1; }
curl -fsS "$base/readyz" >/dev/null || fail "/readyz did not answer 200"
echo "ok: /readyz"

seed=$(curl -fsS -H 'Content-Type: application/json' -d '{"board":["O",1,"X","X",4,"X",6,"O","O"]}' "$base/v1/move")
python3 -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["index"] == 4 and d["outcome"] == "win", d' "$seed" \
    || fail "seed board: $seed"
echo "ok: the seed board through the published port: $seed"

# Read from the host through PID 1's /proc: the image needs no shell or tools for the checks.
pid=$(pod inspect "$name" --format '{{.State.Pid}}')
listen=$(awk '$4 == "0A" {print $2}' "/proc/$pid/net/tcp")
[[ $listen == *"00000000:1F90"* ]] || fail "not listening on 0.0.0.0:8080: $listen"
echo "ok: listening on 0.0.0.0:8080"

[[ $(pod inspect "$name" --format '{{.Config.User}}') == 65532:65532 ]] || fail "image user is not 65532:65532"
status_uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[[ $status_uid == 65532 ]] || fail "PID 1 runs as uid $status_uid"
echo "ok: PID 1 runs as uid 65532"

pod exec "$name" /usr/local/bin/minimax-move healthcheck || fail "healthcheck subcommand failed"
echo "ok: healthcheck subcommand"

# A 15 x 15 search that runs a while, then SIGTERM while it is running.
big=$(python3 -c 'import json; print(json.dumps({"board": "."*225, "rows": 15, "cols": 15, "k": 5, "time_limit_ms": 2500}))')
curl -sS -o "$work/search.json" -w '%{http_code}' -H 'Content-Type: application/json' -d "$big" \
    "$base/v1/move" >"$work/search.code" &
searching=$!
# Wait until the search is running (the search gauge in /metrics), not for a fixed time.
for _ in $(seq 100); do
    curl -fsS "$base/metrics" | grep -Eq '^minimax_searches_in_flight [1-9]' && break
    sleep 0.05
done
term_at=$(date +%s%N)
pod kill --signal TERM "$name" >/dev/null
code=$(timeout 15 podman --runtime runc --cgroup-manager=cgroupfs wait "$name")
exited_ms=$((($(date +%s%N) - term_at) / 1000000))
wait "$searching" || fail "the search request failed during shutdown"
[[ $(cat "$work/search.code") == 200 ]] || fail "search answered $(cat "$work/search.code"): $(cat "$work/search.json")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["index"], int), d' "$work/search.json" \
    || fail "search body: $(cat "$work/search.json")"
[[ $code == 0 ]] || fail "exit status $code after SIGTERM"
((exited_ms < 10000)) || fail "exited $exited_ms ms after SIGTERM (grace 10000 ms)"
echo "ok: SIGTERM during a 15 x 15 search: its answer arrived ($(head -c 80 "$work/search.json")...), exit 0 after $exited_ms ms"

done_at=$(date +%s)
echo "container-test: ok (bases $((bases_done - started)) s, build $((built - bases_done)) s, checks $((done_at - built)) s)"
