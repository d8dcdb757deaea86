/**
 * OpenTelemetry traces, exported over OTLP/HTTP (JSON) when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set: spans for requests, service methods (`Effect.fn` names), SQL
 * statements, search and jobs. Unset, the tracer is switched off: every span (`Effect.withSpan`, `Effect.fn`, SQL
 * statements) is a no-op one, without the clock reads, attributes and parent bookkeeping of a real span that no one
 * would read. Left on, Effect's in-process tracer made them all, and the search path's spans cost the `scale`
 * benchmark's 8-client vector search (20 000 vectors of 384 dimensions on SQLite) about a sixth of its CPU a
 * request; the per-request span was already skipped (HttpMiddleware.withTracerDisabledWhen in http/Server.ts).
 *
 * Set, the layer also switches the tracer on explicitly: otherwise whether spans are real would depend on the
 * fiber that builds the layer, and a fiber that inherited a switched-off tracer (a test runtime built after an
 * unset one in the same process) would export nothing.
 */
import { FetchHttpClient } from "@effect/platform"
import { OtlpSerialization, OtlpTracer } from "@effect/opentelemetry"
import { Duration, Effect, Layer, Option } from "effect"
import { GlossConfig } from "./Config.js"
import { VERSION } from "./version.js"

export const TracingLive = Layer.unwrapEffect(
  Effect.map(GlossConfig, ({ tracing }) =>
    Option.match(tracing, {
      onNone: () => Layer.setTracerEnabled(false),
      onSome: ({ exportDelayMillis, serviceName, url }) =>
        OtlpTracer.layer({
          url,
          resource: { serviceName, serviceVersion: VERSION },
          exportInterval: Duration.millis(exportDelayMillis)
        }).pipe(
          Layer.provide([OtlpSerialization.layerJson, FetchHttpClient.layer]),
          Layer.merge(Layer.setTracerEnabled(true))
        )
    }))
)
