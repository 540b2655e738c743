# Try to write everywhere but the work folder; print each place that took a file.
for target in /evil "/tmp/$1" /usr/evil /etc/evil /proc/evil /dev/evil "$2/evil" /work/../evil /sys/evil; do
    if (echo pwned > "$target") 2>/dev/null; then echo "wrote $target"; fi
done
echo done
