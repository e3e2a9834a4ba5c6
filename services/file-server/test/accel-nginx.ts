import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { until } from '../../../tests/support/poll';

/** Debian's nginx (the CI installs it): on PATH, or in /usr/sbin. */
export const NGINX = fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

/**
 * The nginx edge's part of FILE_SERVER_ACCEL_REDIRECT (docs/operations.md has the same block):
 * the internal location serving the directory blob store, with the headers nginx must take from
 * the file server's answer. `max_ranges 1`: several ranges get the whole file, as from Patchbay;
 * `add_header Last-Modified` replaces the file's mtime, so If-Range is checked against Patchbay's.
 */
export function accelLocation(prefix: string, blobDir: string): string {
  return `location ${prefix} {
    internal;
    alias ${blobDir}/;
    sendfile on; tcp_nopush off; max_ranges 1; etag off; if_modified_since off;
    add_header Last-Modified $upstream_http_last_modified;
    add_header Access-Control-Allow-Origin $upstream_http_access_control_allow_origin;
    add_header Access-Control-Allow-Methods $upstream_http_access_control_allow_methods;
    add_header Access-Control-Expose-Headers $upstream_http_access_control_expose_headers;
    add_header X-Content-Type-Options $upstream_http_x_content_type_options;
    add_header Content-Security-Policy $upstream_http_content_security_policy;
  }`;
}

/** Starts nginx (one worker) on a free port: `/f/` proxied to the file server, `prefix` served from `blobDir`. */
export async function startAccelNginx(
  root: string,
  fileServerPort: number,
  prefix: string,
  blobDir: string,
): Promise<{ port: number; stop(): Promise<void> }> {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  const conf = path.join(root, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `worker_processes 1; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 1024; }
http { access_log off; keepalive_requests 100000;
  client_body_temp_path ${root}/tmp; proxy_temp_path ${root}/tmp;
  fastcgi_temp_path ${root}/tmp; uwsgi_temp_path ${root}/tmp; scgi_temp_path ${root}/tmp;
  upstream fs { server 127.0.0.1:${fileServerPort}; keepalive 32; }
  server { listen 127.0.0.1:${port};
    location /f/ { proxy_pass http://fs; proxy_http_version 1.1; proxy_set_header Connection ""; }
    ${accelLocation(prefix, blobDir)}
  } }`,
  );
  const child: ChildProcess = spawn(NGINX, ['-c', conf, '-p', root], { stdio: 'ignore' });
  const listening = () =>
    new Promise<true | undefined>((resolve) => {
      const s = net
        .connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        })
        .on('error', () => resolve(undefined));
    });
  await until(`nginx to listen on ${port}`, 5000, listening, { everyMs: 50 });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
