import { Router } from 'express';

/**
 * /healthz: the process is up (Docker HEALTHCHECK, liveness).
 * /readyz: the upstream answers too (readiness). Any HTTP answer below 500 from
 * GET <upstream>/v2/app-settings/version within 2 s counts: even a 401 proves the upstream is serving.
 */
export function healthRoutes(upstreamUrl: string): Router {
  const router = Router();
  const probeUrl = new URL(`${new URL(upstreamUrl).pathname.replace(/\/$/, '')}/v2/app-settings/version`, upstreamUrl);

  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });

  router.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const answer = await fetch(probeUrl, { signal: AbortSignal.timeout(2000) });
      await answer.body?.cancel();
      if (answer.status < 500) {
        res.json({ status: 'ready', upstream: 'ok' });
        return;
      }
      res.status(503).json({ status: 'unavailable', upstream: `HTTP ${answer.status}` });
    } catch {
      res.status(503).json({ status: 'unavailable', upstream: 'unreachable' });
    }
  });
  return router;
}
