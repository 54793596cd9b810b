-- wrk script: POSTs the JSON file named by WRK_BODY to the URL given on the command line.
-- WRK_DELAY_MS, when set, makes each connection wait that long between requests (a steady
-- load instead of as fast as possible).
local f = assert(io.open(os.getenv("WRK_BODY"), "rb"))
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = f:read("*a")
f:close()

local pause = tonumber(os.getenv("WRK_DELAY_MS") or "0")
if pause > 0 then
  function delay()
    return pause
  end
end
