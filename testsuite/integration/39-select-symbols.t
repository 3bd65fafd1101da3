#!/bin/bash
# select_coalloc.so exports exactly the select_p_* symbols this Slurm
# release's loader looks up (node_select_syms[] in its select.c): a
# missing one fails the load, an extra one is a symbol of another
# release left in.  31 for 24.11, 36 for 22.05, 12 for 25.11, 13 for 26.05
# (select_p_job_mem_reduce).  Besides the plugin's own names, one
# function for node_features/coalloc (compat/ctld_pairs.h), and the
# soname it finds the plugin by.  No cluster: the build and the
# release's source.
source "$(dirname "$0")/lib/tap.sh"

SERIES=${COALLOC_SLURM:-$(awk '/^[0-9]/ && $3 == "installed" { print $1; exit }' "$REPO/mk/slurm-versions")}
if [[ -n ${COALLOC_SLURM:-} ]]; then SRC=$REPO/build/slurm-$SERIES/src
else SRC=$REPO/build/slurm-src; fi
SELECT_C=$(ls "$SRC/src/interfaces/select.c" "$SRC/src/common/select.c" 2>/dev/null | head -n1)
SO=$BUILD_DIR/plugins/select_coalloc.so
[[ -f $SELECT_C && -f $SO ]] || bail_out "no $SRC's select.c or no $SO (make SLURM=$SERIES all)"

wanted=$(sed -n '/node_select_syms\[\] = {/,/};/p' "$SELECT_C" | grep -o '"select_p_[a-z_]*"' | tr -d '"' | sort)
have=$(nm -D --defined-only "$SO" | awk '$3 ~ /^select_p_/ { print $3 }' | sort)
ok $([[ -n $wanted ]]; echo $?) "Slurm $SERIES's loader looks up $(wc -w <<< "$wanted") select_p_* symbols"
is "$(comm -23 <(echo "$wanted") <(echo "$have") | paste -sd' ')" "" "  none is missing from select_coalloc.so"
is "$(comm -13 <(echo "$wanted") <(echo "$have") | paste -sd' ')" "" "  and it exports no other"
# the plugin's own names only: plugin_*, init, fini and select_p_*, and
# node_features/coalloc's function
others=$(nm -D --defined-only "$SO" | awk '{ print $3 }' | grep -Ev '^(select_p_|plugin_(name|type|id|version)$|init$|fini$|coalloc_ctld_key_pairs$)' | paste -sd' ')
is "$others" "" "  nothing else is exported"
pairs=$(sed -n 's/^#define COALLOC_CTLD_PAIRS_SYMBOL \(".*"\)$/\1/p' "$REPO/compat/ctld_pairs.h")
is "$(nm -D --defined-only "$SO" | awk '$3 == "coalloc_ctld_key_pairs" { print "\"" $3 "\"" }')" "$pairs" \
	"  coalloc_ctld_key_pairs, the name compat/ctld_pairs.h looks up"
like "$(readelf -d "$SO" 2>&1)" 'SONAME.*\[select_coalloc\.so\]' "  its soname: select_coalloc.so"

done_testing
