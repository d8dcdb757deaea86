/**
 * OpenTelemetry traces, exported over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: spans for requests, service methods (`Effect.fn` names), SQL
 * statements, search and jobs. Unset, nothing is exported and the per-request span is not even made (it costs
 * about a fifth of a small request's throughput).
 */
import { FetchHttpClient } from "@effect/platform"
import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { Duration, Effect, Layer, Option } from "effect"
import { GlossConfig } from "./Config.js"
import { VERSION } from "./version.js"

export const TracingLive = Layer.unwrapEffect(
  Effect.map(GlossConfig, ({ tracing }) =>
    Option.match(tracing, {
      onNone: () => Layer.empty,
      onSome: ({ exportDelayMillis, serviceName, url }) =>
        OtlpTracer.layer({
          url,
          resource: { serviceName, serviceVersion: VERSION },
          exportInterval: Duration.millis(exportDelayMillis)
        }).pipe(Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer]))
    }))
)
