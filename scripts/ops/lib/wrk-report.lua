-- wrk script shared by scripts/ops/load.sh and scripts/ops/soak.sh.
--
-- Environment:
--   WRK_METHOD   GET (default) or POST
--   WRK_BODY     request body (sent as application/json when set)
--   WRK_STATUS   "1": count responses by status (slower; used where 503s are expected)
--   WRK_RATE     requests per second per thread to aim for (soak): each connection waits between
--                requests, and the wait is corrected once a second from the rate achieved
--   WRK_CONNS    connections per thread (needed with WRK_RATE)
-- At the end it prints one line, "RESULT key=value ...", for the calling script to parse.

wrk.method = os.getenv("WRK_METHOD") or "GET"
local body = os.getenv("WRK_BODY")
if body and #body > 0 then
   wrk.body = body
   wrk.headers["Content-Type"] = "application/json"
end

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

-- Per-thread state (each wrk thread has its own Lua state).
statuses = {}

if os.getenv("WRK_STATUS") == "1" or os.getenv("WRK_RATE") then
   function response(status, headers, body)
      statuses[status] = (statuses[status] or 0) + 1
      if rate_control then rate_control() end
   end
end

local rate = tonumber(os.getenv("WRK_RATE") or "")
if rate then
   local conns = tonumber(os.getenv("WRK_CONNS") or "1")
   local wait_ms = conns * 1000 / rate
   local window_start, window_count = os.time(), 0

   function delay()
      -- wrk takes whole milliseconds: round at random so the mean is wait_ms.
      local whole = math.floor(wait_ms)
      if math.random() < wait_ms - whole then
         return whole + 1
      end
      return whole
   end

   function rate_control()
      window_count = window_count + 1
      local now = os.time()
      if now - window_start >= 1 then
         local achieved = window_count / (now - window_start)
         local factor = achieved / rate
         if factor < 0.5 then factor = 0.5 elseif factor > 2 then factor = 2 end
         wait_ms = wait_ms * factor
         window_start, window_count = now, 0
      end
   end
end

function done(summary, latency, requests)
   local counts = {}
   for _, thread in ipairs(threads) do
      local s = thread:get("statuses")
      if s then
         for status, n in pairs(s) do
            counts[status] = (counts[status] or 0) + n
         end
      end
   end
   local by_status = {}
   for status, n in pairs(counts) do
      table.insert(by_status, string.format("%d:%d", status, n))
   end
   table.sort(by_status)
   local seconds = summary.duration / 1e6
   local e = summary.errors
   io.write(string.format(
      "RESULT requests=%d seconds=%.2f rps=%.0f non2xx=%d connect=%d read=%d write=%d timeout=%d " ..
      "mean_ms=%.3f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f statuses=%s\n",
      summary.requests, seconds, summary.requests / seconds, e.status, e.connect, e.read, e.write,
      e.timeout, latency.mean / 1000, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
      latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000,
      (#by_status > 0) and table.concat(by_status, ",") or "-"))
end
