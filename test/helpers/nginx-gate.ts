/**
 * A reverse proxy in front of the console as Wiren Board's homeui puts one in front of a service
 * it lists in its menu (a "service gate", gates.d): a real nginx on a port of its own, proxying to
 * the service on loopback with the headers homeui's gate passes (`Host $host` — the host name
 * without its port —, X-Real-IP, X-Forwarded-For, X-Forwarded-Proto, the WebSocket upgrade).
 * homeui's own login check in front (auth_request) is homeui's, not part of this. Without nginx
 * the tests skip and say so (`.ci/run` installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { waitUntil } from './wait-until.js';
import { http } from './console-http.js';

export const NGINX_PATH = process.env['CTL_TEST_NGINX'] ?? '/usr/sbin/nginx';

export const skipWithoutNginx = existsSync(NGINX_PATH)
  ? false
  : `${NGINX_PATH} is not installed: gate tests skipped (apt-get install nginx, or run .ci/run)`;

export interface NginxGate {
  readonly port: number;
  close(): Promise<void>;
}

export async function startNginxGate(upstreamPort: number): Promise<NginxGate> {
  const dir = mkdtempSync(join(tmpdir(), 'ctl-nginx-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    server_name _;
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_set_header Host $host;
      proxy_set_header X-Real-IP $remote_addr;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection "upgrade";
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
  await waitUntil(
    async () => {
      try {
        await http(`http://127.0.0.1:${port}/assets/none`);
        return true;
      } catch {
        return false;
      }
    },
    'nginx to answer',
    { timeoutMs: 10_000, intervalMs: 50 },
  );
  return {
    port,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
