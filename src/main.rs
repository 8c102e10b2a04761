//! The binary: configuration, telemetry, bind, serve, graceful shutdown.

use std::process::ExitCode;

use clap::Parser;
use minimax_move::api::{AppState, app, metrics, openapi_yaml};
use minimax_move::config::{Command, Config};
use minimax_move::{gomocup, healthcheck, server, telemetry};

fn main() -> ExitCode {
    let config = Config::parse();
    match config.command {
        Some(Command::Healthcheck) => match healthcheck::probe(&config.host, config.port) {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => {
                eprintln!("{why}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Openapi) => {
            print!("{}", openapi_yaml());
            ExitCode::SUCCESS
        }
        Some(Command::Pbrain) => {
            let options = gomocup::BrainOptions {
                work_rate: config.search_work_rate.max(1),
            };
            match gomocup::run(
                std::io::BufReader::new(std::io::stdin()),
                std::io::stdout().lock(),
                options,
            ) {
                Ok(()) => ExitCode::SUCCESS,
                Err(why) => {
                    eprintln!("{why}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Mcp) => mcp_stdio(&config),
        Some(Command::Serve) | None => serve(&config),
    }
}

#[tokio::main]
async fn serve(config: &Config) -> ExitCode {
    telemetry::init(config.log_format);
    let state = AppState::new(config.settings());
    // Before the listener exists: no request can be answered before SIGTERM is handled.
    let signalled = server::shutdown_signal();
    let address = config.bind_address();
    let listener = match tokio::net::TcpListener::bind(&address).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(%error, %address, "cannot bind");
            return ExitCode::FAILURE;
        }
    };
    tracing::info!(address = %listener.local_addr().map_or(address, |a| a.to_string()), "listening");
    metrics::spawn_upkeep();
    let warming = state.clone();
    tokio::task::spawn_blocking(move || {
        let started = std::time::Instant::now();
        warming.warm_up();
        let warm_up_ms = started.elapsed().as_millis();
        tracing::info!(warm_up_ms, "engine tables built; ready");
    });
    let draining = state.clone();
    let options = config.serve_options();
    let shutdown = async move {
        signalled.await;
        draining.mark_draining();
        draining.end_streams_by(options.streams_end_by(std::time::Instant::now()));
    };
    match server::serve(listener, app(state), shutdown, options).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server failed");
            ExitCode::FAILURE
        }
    }
}

/// `minimax-move mcp`: MCP over stdio. No telemetry: stdout carries only the protocol.
#[tokio::main]
async fn mcp_stdio(config: &Config) -> ExitCode {
    let state = AppState::ready(config.settings());
    match minimax_move::api::mcp::serve_stdio(state).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp: {error}");
            ExitCode::FAILURE
        }
    }
}
