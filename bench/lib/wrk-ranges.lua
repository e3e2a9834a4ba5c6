-- Random single ranges of one file for wrk: `wrk ... -s wrk-ranges.lua <url> -- <fileBytes> <rangeBytes>`.
-- Prints `not206 <n>`: replies that were not 206 (wrk itself counts only non-2xx/3xx), so a server
-- answering 200 with the whole file cannot pass for a fast range server.
local threads = {}
function setup(thread) table.insert(threads, thread) end

local size, range
not206 = 0
function init(args)
  size = tonumber(args[1]); range = tonumber(args[2])
  math.randomseed(os.time() + (tonumber(tostring({}):match('0x(%x+)'), 16) or 0) % 100000)
end
function request()
  local start = math.random(0, size - range)
  return wrk.format('GET', nil, { Range = 'bytes=' .. start .. '-' .. (start + range - 1) })
end
function response(status)
  if status ~= 206 then not206 = not206 + 1 end
end
function done()
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get('not206') end
  io.write(string.format('not206 %d\n', n))
end
