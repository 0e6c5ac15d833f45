-- Rotates /api/search requests with facets over typical queries (wrk -s).
local paths = {
  "/api/search?q=Aleppo&facets=1",
  "/api/search?q=airstrikes&facets=1",
  "/api/search?q=%22car+bomb%22&facets=1&histogram=1",
  "/api/search?q=funeral&facets=1&country=SY",
  "/api/search?q=children+killed&facets=1&sort=-date",
  "/api/search?q=protest&facets=1&from=2016&to=2017",
  "/api/search?q=&facets=1&photographer=Lina+Sabbagh",
  "/api/search?q=shelling&facets=1&place=Ukraine",
}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, errors %d (connect %d, read %d, write %d, status %d, timeout %d)\n",
    summary.requests, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
  io.write(string.format("p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
