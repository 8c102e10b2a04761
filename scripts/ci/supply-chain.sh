#!/usr/bin/env bash
# Supply-chain checks: cargo-deny (licences, bans and duplicates, sources; advisories when a copy
# of the RustSec database is at hand) and a CycloneDX SBOM of the binary's dependency graph.
#
#   bash scripts/ci/supply-chain.sh                  licences, bans, sources, SBOM
#   ADVISORY_DB=/path/to/advisory-db bash scripts/ci/supply-chain.sh
#                                                 the same, plus advisories from that copy (a git
#                                                 clone or mirror of github.com/RustSec/advisory-db)
#
# Installs cargo-deny and cargo-cyclonedx with `cargo install --locked` when missing (each takes
# about 7 minutes to compile on a 2-core machine). Nothing is fetched from GitHub: this machine
# reaches crates.io but not github.com, where the advisory database lives, so without ADVISORY_DB
# the advisories check is skipped and says so. The SBOM goes to target/sbom/.
set -euo pipefail
cd "$(dirname "$0")/../.."

DENY_VERSION=0.20.2
CYCLONEDX_VERSION=0.5.9
have() { command -v "$1" >/dev/null 2>&1; }
have cargo-deny || cargo install --locked --quiet cargo-deny --version "$DENY_VERSION"
have cargo-cyclonedx || cargo install --locked --quiet cargo-cyclonedx --version "$CYCLONEDX_VERSION"

echo "== cargo deny: licenses, bans, sources"
# cargo-deny reads every package of Cargo.lock, other platforms' included, and runs offline: fetch
# them from crates.io first (a fresh machine has only what its own build downloaded).
cargo fetch --locked --quiet
cargo deny --offline check licenses bans sources

echo "== cargo deny: advisories"
if [[ -n "${ADVISORY_DB:-}" ]]; then
    # cargo-deny keeps each database in a folder named after a hash of its URL; give it a clone
    # there, and a copy of deny.toml that points at it, so it never tries the network.
    db=$(mktemp -d)
    trap 'rm -rf "$db"' EXIT
    git clone --quiet "$ADVISORY_DB" "$db/advisory-db-3157b0e258782691"
    echo "advisory database: $(git -C "$db/advisory-db-3157b0e258782691" log -1 --format='%h of %cd' --date=short)"
    sed "s|^ignore = \[\]|ignore = []\ndb-path = \"$db\"\ndb-urls = [\"https://github.com/RustSec/advisory-db\"]|" deny.toml > "$db/deny.toml"
    cargo deny --offline --config "$db/deny.toml" check advisories
else
    echo "skipped: no ADVISORY_DB (the RustSec database is on github.com, which this machine cannot reach)"
fi

echo "== SBOM (CycloneDX)"
mkdir -p target/sbom
cargo cyclonedx --format json --all-features --override-filename minimax-move.cdx >/dev/null
mv minimax-move.cdx.json target/sbom/
python3 - <<'PY'
import json
sbom = json.load(open("target/sbom/minimax-move.cdx.json"))
components = sbom.get("components", [])
assert sbom["bomFormat"] == "CycloneDX" and components, "an SBOM with components"
names = {c["name"] for c in components}
for crate in ("axum", "tokio", "serde", "rmcp"):
    assert crate in names, f"{crate} is in the SBOM"
print(f"target/sbom/minimax-move.cdx.json: CycloneDX {sbom['specVersion']}, {len(components)} components")
PY
