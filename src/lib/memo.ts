/**
 * The value `cache` holds under `key`, built on first use and kept. A cache whose keys come from
 * requests (query strings, field lists, permission scopes) gets a `limit`: once it holds that
 * many values it starts over, so no sequence of requests can make it grow without bound.
 */
export function remembered<K, V>(cache: Map<K, V>, key: K, build: () => V, limit = Number.POSITIVE_INFINITY): V {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= limit) cache.clear();
    value = build();
    cache.set(key, value);
  }
  return value;
}
