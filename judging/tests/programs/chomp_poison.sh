#!/bin/sh
# Chomp test player: eats the poison cookie at once, so it loses every game it moves in.
cat > /dev/null
i=0
while [ "$i" -lt "$1" ]; do
    line=""
    j=0
    while [ "$j" -lt "$2" ]; do line="$line*"; j=$((j + 1)); done
    echo "$line"
    i=$((i + 1))
done
