//! `weather` (specs/weather.yaml) as the scaffold would build it, with handlers that answer
//! from a fixed, offline "service": what the MCP client tests drive as the weather example. The
//! API key comes from `WEATHER_API_KEY` (or `--api-key`); the city `Atlantis` is not found, and
//! the city `Leaky` makes the handler echo the key in its error, which the runtime must redact.

use std::process::ExitCode;

use pas::{Args, Context, Error, Reply};
use serde_json::json;

const SPEC: &str = include_str!("../../../specs/weather.yaml");

fn key(args: &Args) -> Result<String, Error> {
    let key: Option<String> = args.root_matches().get_one::<String>("api_key").cloned();
    key.ok_or_else(|| {
        Error::new("API_KEY_MISSING", "no API key").with_suggestion("set WEATHER_API_KEY")
    })
}

fn city(args: &Args) -> Result<String, Error> {
    let city: String = args.require("city")?;
    match city.as_str() {
        "Atlantis" => Err(Error::new("CITY_NOT_FOUND", "no city is named Atlantis")
            .with_suggestion("weather search Atl")),
        _ => Ok(city),
    }
}

fn current(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    let key = key(args)?;
    let city = city(args)?;
    if city == "Leaky" {
        return Err(Error::new(
            "NETWORK_ERROR",
            format!("GET /now?key={key} failed"),
        ));
    }
    Ok(Reply::object(&json!({
        "city": city, "observedAt": "2026-01-01T12:00:00Z", "temperature": 3.5,
        "condition": "Cloudy", "humidity": 80, "wind": 12.0
    })))
}

fn forecast(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    key(args)?;
    city(args)?;
    let days: i64 = args.require("days")?;
    if !(1..=14).contains(&days) {
        return Err(Error::invalid_argument("days must be 1 to 14"));
    }
    Ok(Reply::list((0..days).map(|day| {
        Ok(
            json!({"date": format!("2026-01-{:02}", day + 1), "high": 5.0, "low": -1.0,
                  "condition": "Sunny", "precipitationChance": 10}),
        )
    })))
}

fn search(args: &Args, _ctx: &Context) -> Result<Reply, Error> {
    key(args)?;
    let query: String = args.require("query")?;
    let limit: i64 = args.require("limit")?;
    let cities = [
        "Springfield,US-IL",
        "Springfield,US-MA",
        "Springfield,US-MO",
    ];
    let found: Vec<_> = cities
        .iter()
        .filter(|c| c.starts_with(&query))
        .take(limit.max(0) as usize)
        .map(|c| json!({"name": c, "country": "US", "population": 100000}))
        .collect();
    Ok(Reply::list(found.into_iter().map(Ok)))
}

fn main() -> ExitCode {
    let source = pas::spec::load::read_reader("weather.yaml", SPEC.as_bytes())
        .expect("the weather spec reads");
    let registry = pas::spec::load::parse(&source).expect("the weather spec is valid");
    pas::App::new(registry)
        .handler("current", current)
        .handler("forecast", forecast)
        .handler("search", search)
        .run()
}
