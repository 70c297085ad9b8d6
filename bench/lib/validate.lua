-- wrk script of every benchmark run: checks each response and reports the run
-- as one JSON line, so that a fast wrong answer never counts as a success.
--
--   BENCH_SCENARIO=user BENCH_EXPECT=file wrk -s validate.lua URL
--
-- A response with a status outside 2xx counts as non-2xx; a 2xx response
-- whose body is not what the scenario answers counts as bad. The first bad or
-- non-2xx body of each thread is kept as a sample for the report. For the
-- "user" scenario each request asks for a random id (1..10000); the other
-- scenarios send the URL's path unchanged (a static request, cheaper for wrk).

local scenario = os.getenv("BENCH_SCENARIO") or "hello"
local USERS = 10000

local expected = nil
local expect_file = os.getenv("BENCH_EXPECT")
if expect_file and expect_file ~= "" then
	local f = assert(io.open(expect_file, "rb"))
	expected = f:read("*a")
	f:close()
end

-- One user object as the endpoints encode it (column order of the table).
local USER = '{"id":%d+,"name":"[^"]+","email":"[^"]+@example%.com","password":"[^"]+",'
	.. '"remember_token":"[^"]+","created_at":"[^"]+","updated_at":"[^"]+"}'

local function user_list(body, n)
	if body:sub(1, 1) ~= "[" or body:sub(-1) ~= "]" then
		return false
	end
	local rest, found = body:sub(2, -2), 0
	for user in rest:gmatch("{.-}") do
		if not user:match("^" .. USER .. "$") then
			return false
		end
		found = found + 1
	end
	return found == n
end

local checks = {
	hello = function(body) return body:match('^{"time":%d+,"str":"hello"}$') ~= nil end,
	user = function(body) return body:match("^" .. USER .. "$") ~= nil end,
	users = function(body) return user_list(body, 10) end,
	queries = function(body) return user_list(body, 100) end,
	redis = function(body) return body == expected end,
	slow = function(body) return body == '{"sleep":0}' end,
}
local check = assert(checks[scenario], "unknown BENCH_SCENARIO " .. scenario)

-- Per-thread counters, read back by done() through the thread handles.
non2xx, bad, sample = 0, 0, ""
local threads = {}

function setup(thread)
	thread:set("thread_index", #threads + 1)
	table.insert(threads, thread)
end

function init(args)
	math.randomseed(os.time() * 100 + thread_index)
end

if scenario == "user" then
	function request()
		return wrk.format(nil, "/user/" .. math.random(1, USERS))
	end
end

function response(status, headers, body)
	if status < 200 or status > 299 then
		non2xx = non2xx + 1
	elseif not check(body) then
		bad = bad + 1
	else
		return
	end
	if sample == "" then
		sample = status .. " " .. body:sub(1, 300)
	end
end

local function json_string(s)
	return '"' .. s:gsub('[%c"\\]', function(c) return string.format("\\u%04x", c:byte()) end) .. '"'
end

function done(summary, latency, requests)
	local totals = { non2xx = 0, bad = 0 }
	local first_sample = ""
	for _, thread in ipairs(threads) do
		totals.non2xx = totals.non2xx + thread:get("non2xx")
		totals.bad = totals.bad + thread:get("bad")
		if first_sample == "" then
			first_sample = thread:get("sample")
		end
	end
	local e = summary.errors
	io.write(string.format(
		'BENCH {"requests":%d,"duration_us":%d,"bytes":%d,"connect_errors":%d,"read_errors":%d,'
		.. '"write_errors":%d,"timeouts":%d,"non2xx":%d,"bad":%d,"latency_us":{"p50":%d,"p90":%d,'
		.. '"p99":%d,"mean":%.1f,"max":%d},"sample":%s}\n',
		summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.timeout,
		totals.non2xx, totals.bad, latency:percentile(50), latency:percentile(90), latency:percentile(99),
		latency.mean, latency.max, json_string(first_sample)))
end
