#!/bin/sh
# partition.sh — seed 003's Tables 3 and 4 in form, on Mosaic's shaders: for each pipeline
# configuration PC1..PC8 (Table 2) and the cost 15p + 5t + i, the passes and cost of the optimal
# partition (exhaustive search, when it finishes within --time-limit), RDS and RDSh, RDS's and RDSh's
# excess over the optimum, and the partitioners' run times.  Shaders: rbp, bmbp, wood (shaders/).
#
# --view vector (the default) partitions the seed's 4-wide machine's graph (each source instruction's
# nodes one node: `mosaic shader --view`), the view the seed's tables are about; --view scalar the
# scalar DAG the VM runs.
#
# usage: bench/partition.sh [--mosaic PATH] [--time-limit S] [--cost CP,CT,CI] [--view vector|scalar]
#                           [SHADER.frag ...]
# Prints markdown tables; '-' where the exhaustive search did not finish (as the seed's '–'), and a
# summary line: complete cases (PC1-PC7) and in how many RDS is optimal or within 5%.
set -u
MOSAIC=build/mosaic
LIMIT=60
COST=15,5,1
VIEW=vector
while [ $# -gt 0 ]; do
    case $1 in
        --mosaic) MOSAIC=$2; shift 2 ;;
        --time-limit) LIMIT=$2; shift 2 ;;
        --cost) COST=$2; shift 2 ;;
        --view) VIEW=$2; shift 2 ;;
        -*) echo "partition.sh: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || set -- shaders/rbp.frag shaders/bmbp.frag shaders/wood.frag

# One run: prints "passes cost seconds complete".
run() {
    "$MOSAIC" shader "$1" --pc "$2" --algo "$3" --cost "$COST" --time-limit "$LIMIT" --view "$VIEW" 2>&1 |
        awk -v algo="$3" '
            $1 == algo":" { p = $2; c = $5; s = $(NF - 1); if ($NF == "s") s = $(NF - 1)
                            for (i = 1; i <= NF; i++) if ($i == "s," || $i == "s") s = $(i - 1)
                            done = index($0, "proved optimal") || algo != "optimal" }
            END { if (p == "") print "err err err 0"; else print p, c, s, done }'
}

echo "Cost model ${COST} (cp,ct,ci), ${VIEW} view; optimal search limited to ${LIMIT} s."
complete=0 optimal=0 within=0
shaders=$*  # the loop below reuses the positional parameters
for f in $shaders; do
    name=$(basename "$f" .frag)
    echo
    "$MOSAIC" shader "$f" --view "$VIEW" | sed -n '2,3p'
    echo
    echo "| $name | optimal c | p | RDS c | p | RDS +% | RDSh c | p | RDSh +% vs RDS | t optimal | t RDS | t RDSh |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
    for pc in 1 2 3 4 5 6 7 8; do
        set -- $(run "$f" "PC$pc" optimal); oc=$2 op=$1 ot=$3 od=$4
        set -- $(run "$f" "PC$pc" rds); rc=$2 rp=$1 rt=$3
        set -- $(run "$f" "PC$pc" rdsh); hc=$2 hp=$1 ht=$3
        if [ "$od" = 1 ]; then
            eff=$(awk -v a="$rc" -v b="$oc" 'BEGIN { printf "%.1f", (b > 0 ? 100 * (a - b) / b : 0) }')
            if [ "$pc" != 8 ]; then
                complete=$((complete + 1))
                [ "$eff" = "0.0" ] && optimal=$((optimal + 1))
                awk -v e="$eff" 'BEGIN { exit !(e <= 5) }' && within=$((within + 1))
            fi
        else
            oc=- op=- eff=-
        fi
        heff=$(awk -v a="$hc" -v b="$rc" 'BEGIN { printf "%.1f", (b > 0 ? 100 * (a - b) / b : 0) }')
        echo "| PC$pc | $oc | $op | $rc | $rp | $eff | $hc | $hp | $heff | $ot | $rt | $ht |"
    done
done
echo
echo "complete cases (PC1-PC7): $complete; RDS optimal in $optimal, within 5% in $within"
