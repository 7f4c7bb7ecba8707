import { json, reply } from '../http/replies.js';
import { OPENMETRICS_CONTENT_TYPE, renderOpenMetrics, type ExtraGauge } from '../metrics/open-metrics.js';
import { collectPerfReport, type PerfSources } from '../metrics/perf-report.js';
import type { AdminEndpoint } from './admin-routes.js';

/** GET /native/admin/perf (docs/administration.md §2) and GET /native/admin/metrics (the same figures, OpenMetrics). */
export function perfEndpoints(sources: PerfSources, gauges: () => ExtraGauge[]): Record<string, AdminEndpoint> {
  return {
    '/native/admin/perf': { allow: 'GET', handle: (_req, res) => json(res, 200, collectPerfReport(sources)) },
    '/native/admin/metrics': {
      allow: 'GET',
      handle: (_req, res) => reply(res, 200, OPENMETRICS_CONTENT_TYPE, renderOpenMetrics(collectPerfReport(sources), gauges())),
    },
  };
}
