import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml documents the deployed topology (issue 20 item 5); no Docker daemon runs
 * here, so these checks keep it from drifting away from the code: the roles it starts, variables
 * the server actually reads, the commands and files it names.
 */

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  entrypoint?: string[];
  volumes?: string[];
}

const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const mainSource = readFileSync('server/src/main.ts', 'utf8');
const readme = readFileSync('README.md', 'utf8');
const kinora = Object.entries(services).filter(([, service]) => service.image === 'kinora' && service.environment?.KINORA_ROLE);
// Every check below is over these four: none may pass on an empty list.
if (kinora.length !== 4) throw new Error(`docker-compose.yml: expected 4 Kinora processes with a KINORA_ROLE, found ${kinora.length}`);

describe('docker-compose.yml', () => {
  it('runs two API processes and two workers on PostgreSQL and an S3-compatible server', () => {
    const roles = kinora.map(([, service]) => service.environment?.KINORA_ROLE).sort();
    expect(roles).toEqual(['api', 'api', 'worker', 'worker']);
    expect(services.postgres?.image).toMatch(/^postgres:15/);
    expect(services.minio?.image).toMatch(/minio/);
    for (const [name, service] of kinora) {
      expect(service.environment?.DATABASE_URL, name).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(service.environment?.KINORA_S3_BUCKET, name).toBe('kinora-media');
      expect(service.depends_on?.postgres?.condition, name).toBe('service_healthy');
      expect(service.depends_on?.['minio-init']?.condition, name).toBe('service_completed_successfully');
      expect(service.healthcheck?.test.join(' '), name).toContain('/health/ready');
    }
    // The bucket the servers use is the one minio-init creates.
    expect(services['minio-init']?.entrypoint?.join(' ') ?? '').toContain('kinora/kinora-media');
  });

  it('sets only variables the server documents, and the API processes serve what setup builds', () => {
    const names = new Set(kinora.flatMap(([, service]) => Object.keys(service.environment ?? {})));
    for (const name of names) expect(mainSource, `${name} is not described in server/src/main.ts`).toContain(name);
    for (const name of names) expect(readme, `${name} is not in README.md`).toContain(name);
    const setup = services.setup;
    expect(setup?.command).toEqual(['node', '--import', 'tsx', 'scripts/build-web.ts', '/srv/kinora/web']);
    expect(existsSync('scripts/build-web.ts')).toBe(true);
    for (const [name, service] of kinora.filter(([, service]) => service.environment?.KINORA_ROLE === 'api')) {
      expect(service.environment?.KINORA_STATIC_DIR, name).toBe('/srv/kinora/web');
      expect(service.depends_on?.setup?.condition, name).toBe('service_completed_successfully');
    }
  });

  it('gives the sign-in service the issuer the API processes verify tokens against', () => {
    const identity = services.identity;
    const mounted = identity?.volumes?.find((volume) => volume.includes('config.json'))?.split(':')[0] ?? '';
    const config = JSON.parse(readFileSync(mounted, 'utf8')) as { TokenConfig: { IssuerDomain: string } };
    for (const [name, service] of kinora) expect(service.environment?.COGNITO_LOCAL_URL, name).toBe(config.TokenConfig.IssuerDomain);
    expect(identity?.environment?.HOST).toBe('0.0.0.0');
  });

  it('builds one image whose command is the server, stopped by SIGTERM without a shell in between', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    expect(dockerfile).toMatch(/^FROM node:20/m);
    expect(dockerfile).toContain('CMD ["node", "--import", "tsx", "server/src/main.ts"]');
    expect(readFileSync('.dockerignore', 'utf8').split('\n')).toEqual(expect.arrayContaining(['node_modules', '.local']));
  });
});
