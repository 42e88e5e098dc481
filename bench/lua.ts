/** wrk request scripts, written out with a common prelude (wrk takes one script per run). */
import { LOTS, PLATES, ZONES } from "./plates.ts";

const PRELUDE = `
local token = os.getenv("BENCH_TOKEN")
wrk.headers["Authorization"] = "Bearer " .. token
wrk.headers["Accept"] = "application/json"
local LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
local function letter(i) return string.sub(LETTERS, i + 1, i + 1) end
local function plateOf(k)
  local digits = k % 1000
  local n = math.floor(k / 1000)
  local l3 = n % 26
  n = math.floor(n / 26)
  local l2 = n % 26
  local l1 = math.floor(n / 26) % 26
  return letter(l1) .. letter(l2) .. letter(l3) .. string.format("%03d", digits)
end
local function plateIndexOfTicket(i) return (i * 7919) % ${PLATES} end
local counter = 0
math.randomseed(os.time())
`;

export const scripts: Record<string, string> = {
  healthz: `${PRELUDE}
request = function() return wrk.format("GET", "/healthz") end`,
  plate: `${PRELUDE}
request = function()
  counter = counter + 1
  local plate = plateOf(math.random(0, ${PLATES - 1}))
  -- A third of the handhelds type plates loosely: lower case with a hyphen.
  if counter % 3 == 0 then plate = string.lower(string.sub(plate, 1, 3)) .. "-" .. string.sub(plate, 4) end
  return wrk.format("GET", "/api/v1/attendants/check-tickets?registration_number=" .. plate)
end`,
  zone: `${PRELUDE}
request = function()
  return wrk.format("GET", "/api/v1/attendants/check-tickets?zone=" .. (1000 + math.random(0, ${ZONES - 1})))
end`,
  zonelist: `${PRELUDE}
request = function()
  return wrk.format("GET", "/api/v1/tickets/zone/" .. (1000 + math.random(0, ${ZONES - 1})))
end`,
  parkings: `${PRELUDE}
request = function() return wrk.format("GET", "/api/v1/parkings") end`,
  quote: `${PRELUDE}
request = function()
  local lot = math.random(1, ${LOTS})
  local day = math.random(1, 28)
  local h = math.random(6, 20)
  local start = string.format("2026-10-%02dT%02d:15:00Z", day, h)
  local stop = string.format("2026-10-%02dT%02d:40:00Z", day, math.min(h + math.random(1, 3), 23))
  return wrk.format("GET", "/api/v1/parkings/" .. lot .. "/quote?start=" .. start .. "&end=" .. stop)
end`,
  "intake-create": `${PRELUDE}
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000))
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
request = function()
  counter = counter + 1
  local plate = plateOf(math.random(0, ${PLATES - 1}))
  local body = '{"eventType":"TicketCreated","ticketId":"c-' .. run .. '-' .. counter ..
    '","zoneCode":"' .. (1000 + counter % ${ZONES}) .. '","parkingLotId":"' .. (1 + counter % ${LOTS}) ..
    '","startDate":"2026-11-21T10:00:00+01:00","endDate":"2026-11-21T12:00:00+01:00","licenseNumber":"' .. plate ..
    '","ticketCost":{"amountInclVat":4000,"vatRate":25,"currencyCode":"SEK"}}'
  return wrk.format("POST", "/api/v1/actions/tickets", nil, body)
end`,
  "intake-mix": `${PRELUDE}
local run = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000))
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
-- Each existing-ticket event walks its own range of pre-generated tickets, skipping the ones the
-- generator canceled (every 97th), so that every event in the mix is valid and answered 200.
local next = { TicketUpdated = 100000, TicketStopped = 200000, TicketMoved = 300000, TicketCanceled = 400000 }
local function take(kind)
  local i = next[kind]
  if i % 97 == 0 then i = i + 1 end
  next[kind] = i + 1
  return i
end
local kinds = { "TicketCreated", "TicketUpdated", "TicketStopped", "TicketMoved", "TicketCanceled", "CreateOrUpdate" }
local function full(kind, id, plate, cost)
  return '{"eventType":"' .. kind .. '","ticketId":"' .. id .. '","zoneCode":"1042","parkingLotId":"7",' ..
    '"startDate":"2026-11-21T10:00:00+01:00","endDate":"2026-11-21T12:00:00+01:00","licenseNumber":"' .. plate ..
    '","ticketCost":{"amountInclVat":' .. cost .. ',"vatRate":25,"currencyCode":"SEK"}}'
end
request = function()
  counter = counter + 1
  local kind = kinds[(counter % 6) + 1]
  local body
  if kind == "TicketCreated" then
    body = full(kind, "m-" .. run .. "-" .. counter, plateOf(counter % ${PLATES}), "4000")
  elseif kind == "CreateOrUpdate" then
    body = full(kind, "u-" .. run .. "-" .. counter, plateOf(counter % ${PLATES}), '"40,00"')
  elseif kind == "TicketMoved" then
    local i = take(kind)
    body = '{"eventType":"TicketMoved","ticketId":"bench-' .. i .. '","fromLicenseNumber":"' ..
      plateOf(plateIndexOfTicket(i)) .. '","toLicenseNumber":"MOV' .. (i % 1000) .. '"}'
  elseif kind == "TicketCanceled" then
    body = '{"eventType":"TicketCanceled","ticketId":"bench-' .. take(kind) .. '"}'
  else
    local i = take(kind)
    body = full(kind, "bench-" .. i, plateOf(plateIndexOfTicket(i)), "5000")
  end
  return wrk.format("POST", "/api/v1/actions/tickets", nil, body)
end`,
};
