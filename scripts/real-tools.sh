# Sourced by the bench scripts: puts the real python3 and rustc first on
# the PATH, for every tool they run alike. A version manager's shim
# (pyenv's, rustup's) costs more per start than the tool itself (80 ms
# against 9 ms for python3 -S); the tools are the ones the shims pick.
python=$(python3 -S -c 'import sys; print(sys.executable)' 2>/dev/null)
sysroot=$(rustc --print sysroot 2>/dev/null)
for dir in ${python:+"$(dirname "$python")"} ${sysroot:+"$sysroot/bin"}; do
  [ -d "$dir" ] && PATH=$dir:$PATH
done
export PATH
