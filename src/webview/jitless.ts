import { z } from 'zod';

// zod probes `new Function` when a schema is built, to compile faster parsers. The panel's CSP
// forbids eval, so the probe only fails and logs a CSP violation: turn it off. Imported first
// by main.ts, since the schemas in webview-protocol are built when their module loads.
z.config({ jitless: true });
