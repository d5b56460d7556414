# runtime.function_list: docs/runtime-functions.txt lists exactly the public
# functions the runtime headers declare (scripts/runtime-functions.sh).
# UPDATE_GOLDEN=1 rewrites the list.
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/plugin/lib.sh"
sh "$root/scripts/runtime-functions.sh" >got.txt || fail "listing failed"
[ "$(grep -c . got.txt)" -gt 100 ] || fail "implausibly few functions listed"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
  cp got.txt "$root/docs/runtime-functions.txt"
elif ! diff -u "$root/docs/runtime-functions.txt" got.txt >&2; then
  fail "docs/runtime-functions.txt is out of date (UPDATE_GOLDEN=1 or scripts/runtime-functions.sh)"
fi
