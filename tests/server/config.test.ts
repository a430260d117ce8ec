import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

/** The error loadConfig throws for `env`, so its message can be read; fails the test when nothing is thrown. */
function configErrorFor(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** The variables a ConfigError message names, one per `  NAME: reason` line. */
function namedVariables(error: ConfigError): string[] {
  return [...error.message.matchAll(/^\s+([A-Z_]+): \S/gm)].map((match) => match[1]);
}

describe('loadConfig', () => {
  it('runs on defaults alone: port 3000, SQLite under var/, development, worker on', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe('sqlite');
    expect(config.database.kind === 'sqlite' && config.database.path).toMatch(/^var\/[^/]+\.sqlite$/);
    expect(config.appEnv).toBe('development');
    expect(config.redisUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.workerEnabled).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.productionUrl).toBeNull();
    expect(config.supportEmail).toBe('partenaires@passculture.app');
  });

  it('answers at http://localhost and its PORT unless PUBLIC_URL says where readers reach it', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', PUBLIC_URL: 'https://sandbox.example.net' }).publicUrl).toBe(
      'https://sandbox.example.net',
    );
  });

  it('takes the production address and the support address as given; in production, this server is production', () => {
    const integration = loadConfig({
      APP_ENV: 'integration',
      PUBLIC_URL: 'https://sandbox.example.net',
      PRODUCTION_URL: 'https://api.example.net/',
      SUPPORT_EMAIL: 'providers@example.net',
    });
    expect(integration.productionUrl).toBe('https://api.example.net');
    expect(integration.supportEmail).toBe('providers@example.net');
    const production = loadConfig({ APP_ENV: 'production', PUBLIC_URL: 'https://api.example.net' });
    expect(production.productionUrl).toBe('https://api.example.net');
    expect(
      loadConfig({
        APP_ENV: 'production',
        PUBLIC_URL: 'https://api.example.net',
        PRODUCTION_URL: 'https://api.example.net/',
      }).productionUrl,
    ).toBe('https://api.example.net');
  });

  it('refuses a production address other than its own in production, naming PRODUCTION_URL', () => {
    const error = configErrorFor({
      APP_ENV: 'production',
      PUBLIC_URL: 'https://api.example.net',
      PRODUCTION_URL: 'https://elsewhere.example.net',
    });
    expect(namedVariables(error)).toEqual(['PRODUCTION_URL']);
    expect(error.message).toContain('this server is the production one');
  });

  it('reads only the environment it is given, not process.env', () => {
    const saved = process.env.PORT;
    process.env.PORT = '4567';
    try {
      expect(loadConfig({}).port).toBe(3000);
      expect(loadConfig({ PORT: '4567' }).port).toBe(4567);
    } finally {
      if (saved === undefined) delete process.env.PORT;
      else process.env.PORT = saved;
    }
  });

  it('switches to PostgreSQL when DATABASE_URL is set, with either URL scheme, keeping the URL as given', () => {
    for (const url of [
      'postgres://app:secret@db.internal:5432/provider',
      'postgresql://localhost/provider?sslmode=require',
    ]) {
      const config = loadConfig({ DATABASE_URL: url, SQLITE_PATH: '/tmp/ignored.sqlite' });
      expect(config.database).toEqual({ kind: 'postgresql', url });
    }
  });

  it('takes SQLITE_PATH, PORT, APP_ENV, REDIS_URL, LOG_LEVEL and WORKER_ENABLED as given', () => {
    const config = loadConfig({
      SQLITE_PATH: '/data/platform.sqlite',
      PORT: '8080',
      APP_ENV: 'production',
      REDIS_URL: 'rediss://cache.internal:6380',
      LOG_LEVEL: 'warn',
      WORKER_ENABLED: 'false',
      PUBLIC_URL: 'https://api.example.org/',
    });
    expect(config.database).toEqual({ kind: 'sqlite', path: '/data/platform.sqlite' });
    expect(config.port).toBe(8080);
    expect(config.appEnv).toBe('production');
    expect(config.redisUrl).toBe('rediss://cache.internal:6380');
    expect(config.logLevel).toBe('warn');
    expect(config.workerEnabled).toBe(false);
    // No trailing slash, so that `${publicUrl}/path` never doubles it.
    expect(config.publicUrl).toBe('https://api.example.org');
  });

  it('accepts every deployment environment', () => {
    for (const appEnv of ['development', 'integration', 'production'] as const) {
      expect(loadConfig({ APP_ENV: appEnv }).appEnv).toBe(appEnv);
    }
  });

  it('allows private destinations of outgoing calls outside production only, unless OUTBOUND_ALLOW_PRIVATE says', () => {
    expect(loadConfig({}).outboundAllowPrivate).toBe(true);
    expect(loadConfig({ APP_ENV: 'integration' }).outboundAllowPrivate).toBe(true);
    expect(loadConfig({ APP_ENV: 'production' }).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ APP_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: 'true' }).outboundAllowPrivate).toBe(true);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'false' }).outboundAllowPrivate).toBe(false);
    expect(loadConfig({ APP_ENV: 'production', OUTBOUND_ALLOW_PRIVATE: '' }).outboundAllowPrivate).toBe(false);
  });

  it.each<[string, string[], string?]>([
    ['PORT', ['abc', '70000', '-1', '3000.5', '65536']],
    // Its message also says what is expected.
    [
      'DATABASE_URL',
      ['mysql://localhost/provider', 'sqlite:var/db.sqlite', 'localhost:5432', 'http://postgres'],
      'postgres',
    ],
    ['APP_ENV', ['staging', 'test', 'Production', 'prod']],
    ['REDIS_URL', ['localhost:6379']],
    ['LOG_LEVEL', ['verbose']],
    ['WORKER_ENABLED', ['yes']],
    ['PUBLIC_URL', ['not a url', 'ftp://files.example.net', 'https://api.example.net/?env=test'], 'http'],
    ['PRODUCTION_URL', ['not a url', 'mailto:api@example.net', 'https://api.example.net/#top'], 'http'],
    ['SUPPORT_EMAIL', ['support', 'https://example.net'], 'email'],
    ['OUTBOUND_ALLOW_PRIVATE', ['yes', '1', 'TRUE']],
  ])('refuses a bad %s with a ConfigError that names it', (variable, values, saying) => {
    for (const value of values) {
      const error = configErrorFor({ [variable]: value });
      expect(namedVariables(error), `${variable}=${value}`).toEqual([variable]);
      expect(error.message).toMatch(/^Invalid configuration:/);
      if (saying) expect(error.message).toContain(saying);
    }
  });

  it('instruments the libraries OTEL_NODE_ENABLED_INSTRUMENTATIONS names, less those OTEL_NODE_DISABLED_INSTRUMENTATIONS names', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(
      loadConfig({ ...endpoint, OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'express, ioredis' }).tracing?.instrumentations,
    ).toEqual(['http', 'graphql', 'pg', 'undici']);
    expect(
      loadConfig({ ...endpoint, OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'http,express,pg' }).tracing?.instrumentations,
    ).toEqual(['http', 'express', 'pg']);
    expect(
      loadConfig({
        ...endpoint,
        OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'pg,http,express',
        OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'express',
      }).tracing?.instrumentations,
    ).toEqual(['pg', 'http']);
    expect(() => loadConfig({ ...endpoint, OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'express,fs' })).toThrow(
      /OTEL_NODE_DISABLED_INSTRUMENTATIONS.*\(fs\); they are http, express, graphql, pg, ioredis, undici/,
    );
  });

  it('traces only with an OTLP endpoint, with the sampler and encoding the OTEL_ variables name', () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'api' }).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).tracing).toEqual({
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      serviceName: null,
      // Express only when named (decision 025).
      instrumentations: ['http', 'graphql', 'pg', 'ioredis', 'undici'],
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.1',
        OTEL_SERVICE_NAME: 'provider-api-eu',
      }).tracing,
    ).toEqual({
      protocol: 'http/json',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.1,
      serviceName: 'provider-api-eu',
      instrumentations: ['http', 'graphql', 'pg', 'ioredis', 'undici'],
    });
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).tracing,
    ).toBeNull();
  });

  it('refuses an OTLP encoding it cannot send, a sampler the specification does not name, a ratio outside 0 to 1', () => {
    const error = configErrorFor({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '1.5',
    });
    expect(namedVariables(error)).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      'OTEL_TRACES_SAMPLER',
      'OTEL_TRACES_SAMPLER_ARG',
    ]);
    expect(error.message).toContain('gRPC is not installed');
  });

  it('serves metrics only with METRICS_PORT, on HOST unless METRICS_HOST says, and never on PORT', () => {
    expect(loadConfig({}).metrics).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464', HOST: '10.0.0.2' }).metrics).toEqual({ port: 9464, host: '10.0.0.2' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    // Both 0: each gets a free port of its own.
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metrics).toEqual({ port: 0, host: '0.0.0.0' });
    const samePort = configErrorFor({ PORT: '8080', METRICS_PORT: '8080' });
    expect(namedVariables(samePort)).toEqual(['METRICS_PORT']);
    expect(samePort.message).toContain('never the public one');
    expect(namedVariables(configErrorFor({ METRICS_PORT: '3000' }))).toEqual(['METRICS_PORT']);
    expect(namedVariables(configErrorFor({ METRICS_PORT: '70000' }))).toEqual(['METRICS_PORT']);
  });

  it('lists every bad variable at once', () => {
    const error = configErrorFor({
      PORT: 'http',
      DATABASE_URL: 'mysql://x',
      APP_ENV: 'staging',
      SQLITE_PATH: 'fine.sqlite',
    });
    expect(namedVariables(error).sort()).toEqual(['APP_ENV', 'DATABASE_URL', 'PORT']);
  });

  it('counts blank values as unset', () => {
    const config = loadConfig({
      PORT: '',
      DATABASE_URL: '',
      SQLITE_PATH: '',
      REDIS_URL: '',
      APP_ENV: '',
      PUBLIC_URL: '',
      PRODUCTION_URL: '',
      SUPPORT_EMAIL: '',
      LOG_LEVEL: '',
      WORKER_ENABLED: '',
    });
    expect(config).toEqual(loadConfig({}));
    expect(config.port).toBe(3000);
    expect(config.database.kind).toBe('sqlite');
    expect(config.appEnv).toBe('development');
    expect(config.redisUrl).toBeUndefined();
  });

  it('ignores variables it does not know', () => {
    expect(loadConfig({ HOME: '/root', NODE_ENV: 'production', SOMETHING_ELSE: 'x' })).toEqual(loadConfig({}));
  });
});
