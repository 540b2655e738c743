# Fill /tmp and the work folder; print how many MB each took.
for place in /tmp /work; do
    n=0
    while dd if=/dev/zero of="$place/fill$n" bs=1M count=1 2>/dev/null && [ $n -lt 4096 ]; do n=$((n + 1)); done
    echo "$place $n"
done
