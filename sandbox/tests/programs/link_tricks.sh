# Leave links and odd files where the referee reads its answers.
ln -s /etc/passwd output.txt
ln -s /proc/self/environ env.txt
ln /usr/bin/python3 hard.txt 2>&1 || echo "hard link refused"
mkfifo fifo.txt
mkdir -p sub && ln -s / sub/up
ln -s .. parent
echo ok
