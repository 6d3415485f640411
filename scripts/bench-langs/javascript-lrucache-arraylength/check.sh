#!/bin/sh
# Interesting iff node fails with a RangeError for an invalid array length
# raised in #initializeTTLTracking while constructing an LRUCache.
f=${1:-lru-cache.js}
out=$(timeout 10 node "$f" 2>&1)
echo "$out" | grep -q '^RangeError: Invalid array length' &&
  echo "$out" | grep -q 'at #initializeTTLTracking ' &&
  echo "$out" | grep -q 'at new LRUCache '
