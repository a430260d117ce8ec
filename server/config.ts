import { z } from 'zod';
import { type AppEnv, appEnvironments } from '../platform/appEnv.js';
import { isStaffRole, type StaffRole, staffRoles } from '../graphql/shared/staffRoles.js';
import { isSubgraphName, type SubgraphName, subgraphNames } from '../graphql/subgraphNames.js';

/**
 * The one place that reads process.env. Everything else receives a typed Config,
 * so a bad value stops the process at boot with a message naming the variable.
 */
export type { AppEnv };

/** The programme's provider support, unless the operator names their own. */
export const DEFAULT_SUPPORT_EMAIL = 'partenaires@passculture.app';

/** An address the API is reached at: http or https, without query or fragment. */
const WEB_ADDRESS = 'must be an http:// or https:// address, without query or fragment';
const webAddress = z
  .url({ protocol: /^https?$/, error: WEB_ADDRESS })
  .refine((value) => !/[?#]/.test(value), WEB_ADDRESS);

/** The OTLP encodings the installed exporters speak (OTEL_EXPORTER_OTLP_PROTOCOL). */
export const traceProtocols = ['http/protobuf', 'http/json'] as const;
/** OTEL_TRACES_SAMPLER's values, as the specification names them. */
export const traceSamplers = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
/**
 * The libraries whose instrumentation the platform loads, by the names OpenTelemetry's Node
 * auto-instrumentations give them in OTEL_NODE_ENABLED_INSTRUMENTATIONS and
 * OTEL_NODE_DISABLED_INSTRUMENTATIONS.
 */
export const tracedLibraries = ['http', 'express', 'graphql', 'pg', 'ioredis', 'undici'] as const;
export type TracedLibrary = (typeof tracedLibraries)[number];

/**
 * Those loaded unless OTEL_NODE_ENABLED_INSTRUMENTATIONS says otherwise: all but express. The
 * facade routes through a table of its own, so express's only spans of a REST request were those
 * of routers it merely passed (named after the images and downloads routes), while without its
 * wrapper of every layer a traced GET provider serves 8 to 11% more requests a second in the bench
 * (decision 025). Named, it still loads.
 */
export const defaultTracedLibraries: readonly TracedLibrary[] = tracedLibraries.filter(
  (library) => library !== 'express',
);

/** `express,pg`: a comma-separated list of traced libraries' names, each checked. */
const tracedLibraryList = z.string().transform((value, context) => {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(tracedLibraries as readonly string[]).includes(name));
  if (unknown.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `names no instrumentation the platform loads (${unknown.join(', ')}); they are ${tracedLibraries.join(', ')}`,
    });
    return z.NEVER;
  }
  return names as TracedLibrary[];
});

/** `providers=http://10.0.0.5:4001/graphql,offers=...`: the subgraphs served by services of their own. */
const subgraphUrls = z.string().transform((value, context) => {
  const urls: Partial<Record<SubgraphName, string>> = {};
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [name, url] = [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)];
    if (!entry.includes('=') || !isSubgraphName(name)) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is not name=url with a name among ${subgraphNames.join(', ')}`,
      });
    } else if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      context.addIssue({ code: 'custom', message: `the address of ${name} must be an http:// or https:// URL` });
    } else if (urls[name]) {
      context.addIssue({ code: 'custom', message: `${name} is named twice` });
    } else {
      urls[name] = url;
    }
  }
  return urls;
});

/** `group-or-e-mail=role,...` (OIDC_ROLE_MAP): the roles a group of the IdP, or one person, holds here. */
const roleMap = z.string().transform((value, context) => {
  const roles: Record<string, StaffRole[]> = {};
  for (const entry of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = entry.lastIndexOf('=');
    const [name, role] = [entry.slice(0, at).trim().toLowerCase(), entry.slice(at + 1).trim()];
    if (at <= 0 || !isStaffRole(role)) {
      context.addIssue({
        code: 'custom',
        message: `"${entry}" is not group-or-e-mail=role with a role among ${staffRoles.join(', ')}`,
      });
    } else {
      roles[name] = [...(roles[name] ?? []), role];
    }
  }
  return roles;
});

const wordList = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((word) => word.trim().toLowerCase())
    .filter(Boolean);

const configSchema = z
  .object({
    PORT: z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number (0 to 65535)')
      .transform(Number)
      .pipe(z.number().max(65535, 'must be a port number (0 to 65535)'))
      .default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    // Unset: no metrics. A port of its own, so that /metrics is never reachable where the API is.
    METRICS_PORT: z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number (0 to 65535)')
      .transform(Number)
      .pipe(z.number().max(65535, 'must be a port number (0 to 65535)'))
      .optional(),
    METRICS_HOST: z.string().min(1).optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    SQLITE_PATH: z.string().min(1).default('var/provider-platform.sqlite'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    APP_ENV: z.enum(appEnvironments).default('development'),
    GEOCODER_URL: z.url().optional(),
    IMAGE_DIRECTORY: z.string().min(1).default('var/images'),
    AUTO_APPROVAL_DELAY_SECONDS: z
      .string()
      .regex(/^\d+$/, 'must be a whole number of seconds')
      .transform(Number)
      .default(0),
    JOB_LEASE_SECONDS: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of seconds, at least 1')
      .transform(Number)
      .default(300),
    REQUEST_LOG_MAX_ROWS_PER_PROVIDER: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of requests, at least 1')
      .transform(Number)
      .default(10_000),
    PUBLIC_URL: webAddress.optional(),
    PRODUCTION_URL: webAddress.optional(),
    SUPPORT_EMAIL: z.email('must be an email address').default(DEFAULT_SUPPORT_EMAIL),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    WORKER_ENABLED: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    SUBGRAPH_URLS: subgraphUrls.optional(),
    // Shared by the API process and the subgraph services: it signs the caller each request carries across.
    INTERNAL_SIGNING_SECRET: z
      .string()
      .min(32, 'must be at least 32 characters (for example: openssl rand -hex 32)')
      .optional(),
    SUBGRAPH_TIMEOUT_MS: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of milliseconds, at least 1')
      .transform(Number)
      .default(10_000),
    // Unset: its default depends on APP_ENV (see loadConfig).
    OUTBOUND_ALLOW_PRIVATE: z
      .enum(['true', 'false'])
      .optional()
      .transform((value) => (value === undefined ? undefined : value === 'true')),
    // Traces (server/tracing/): OpenTelemetry's own variables, read by its SDK as well; unset endpoint: no SDK loaded.
    OTEL_SDK_DISABLED: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
    OTEL_EXPORTER_OTLP_ENDPOINT: webAddress.optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: webAddress.optional(),
    OTEL_EXPORTER_OTLP_PROTOCOL: z
      .enum(traceProtocols, { error: `must be one of ${traceProtocols.join(', ')} (gRPC is not installed)` })
      .default('http/protobuf'),
    OTEL_TRACES_SAMPLER: z.enum(traceSamplers).default('parentbased_always_on'),
    OTEL_TRACES_SAMPLER_ARG: z
      .string()
      .regex(/^(0(\.\d+)?|1(\.0+)?)$/, 'must be a ratio between 0 and 1, such as 0.1')
      .transform(Number)
      .optional(),
    OTEL_SERVICE_NAME: z.string().min(1).optional(),
    OTEL_NODE_ENABLED_INSTRUMENTATIONS: tracedLibraryList.optional(),
    OTEL_NODE_DISABLED_INSTRUMENTATIONS: tracedLibraryList.optional(),
    // Staff sign-in (decision 031): the organisation's OpenID Connect identity provider.
    OIDC_ISSUER: webAddress.optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_ALLOWED_EMAIL_DOMAIN: z.string().transform(wordList).optional(),
    OIDC_ROLES_CLAIM: z.string().min(1).optional(),
    OIDC_ROLE_MAP: roleMap.optional(),
    OIDC_SCOPES: z.string().min(1).default('openid email profile'),
    OIDC_SIGN_OUT_AT_IDP: z
      .enum(['true', 'false'])
      .default('true')
      .transform((value) => value === 'true'),
    // A person signing in to the back office with an internal key: for a platform without an IdP only.
    BACKOFFICE_BREAK_GLASS: z
      .enum(['true', 'false'])
      .default('false')
      .transform((value) => value === 'true'),
  })
  .superRefine((values, context) => {
    // 0 picks a free port for each, so both may be 0; any other equal pair would serve /metrics publicly.
    if (values.METRICS_PORT !== undefined && values.METRICS_PORT !== 0 && values.METRICS_PORT === values.PORT) {
      context.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message: 'must differ from PORT: the metrics are served on a port of their own, never the public one',
      });
    }
    if (values.SUBGRAPH_URLS && Object.keys(values.SUBGRAPH_URLS).length > 0 && !values.INTERNAL_SIGNING_SECRET) {
      context.addIssue({
        code: 'custom',
        path: ['INTERNAL_SIGNING_SECRET'],
        message: 'is required with SUBGRAPH_URLS: the subgraph services accept only a caller signed with it',
      });
    }
    const oidcSet = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
    if (oidcSet.some((name) => values[name] !== undefined)) {
      for (const name of oidcSet.filter((one) => values[one] === undefined)) {
        context.addIssue({ code: 'custom', path: [name], message: `is required with ${oidcSet.join(', ')}` });
      }
      if (!values.OIDC_ROLES_CLAIM && !values.OIDC_ROLE_MAP) {
        context.addIssue({
          code: 'custom',
          path: ['OIDC_ROLES_CLAIM'],
          message: 'or OIDC_ROLE_MAP is required with OIDC_ISSUER: without either, nobody holds a role',
        });
      }
      if (values.APP_ENV === 'production' && values.OIDC_ISSUER?.startsWith('http:')) {
        context.addIssue({
          code: 'custom',
          path: ['OIDC_ISSUER'],
          message: 'must be an https:// address in production',
        });
      }
    }
    // In production this server is the production server: a second address would contradict it.
    if (values.APP_ENV !== 'production' || values.PRODUCTION_URL === undefined) return;
    if (withoutTrailingSlash(values.PRODUCTION_URL) === withoutTrailingSlash(values.PUBLIC_URL ?? '')) return;
    context.addIssue({
      code: 'custom',
      path: ['PRODUCTION_URL'],
      message: 'with APP_ENV=production this server is the production one: leave it unset or equal to PUBLIC_URL',
    });
  });

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The environment variables the process reads: the operators' docs list each one. */
export const configVariables: readonly string[] = Object.keys(configSchema.shape);

/** Where and how spans are exported; null: tracing is off and its SDK is never loaded. */
export interface TracingConfig {
  protocol: (typeof traceProtocols)[number];
  sampler: (typeof traceSamplers)[number];
  /** The ratio of the `traceidratio` samplers (1 when unset, as the specification says). */
  samplerRatio: number;
  /** OTEL_SERVICE_NAME; unset: the process names itself (the API process, or the subgraph it serves). */
  serviceName: string | null;
  /** The libraries instrumented: the default ones, or those OTEL_NODE_ENABLED_INSTRUMENTATIONS names, less the disabled ones. */
  instrumentations: TracedLibrary[];
}

export interface Config {
  port: number;
  host: string;
  /** Where /metrics listens (METRICS_PORT, METRICS_HOST); null: no metrics are collected or served. */
  metrics: { port: number; host: string } | null;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgresql'; url: string };
  redisUrl?: string;
  /** An address search service (api-adresse style); unset: the offline municipality data. */
  geocoderUrl?: string;
  /** Where offer images are stored on disk. */
  imageDirectory: string;
  /** Outside production, the wait before a new offer is approved without a reviewer. */
  autoApprovalDelaySeconds: number;
  /**
   * How long a job may run without a sign of life (a step committed) before another worker
   * presumes its process dead and runs it again: the delay before a crashed job resumes.
   */
  jobLeaseSeconds: number;
  /** The requests kept per provider for its console (besides 7 days at most); the oldest go first. */
  requestLogMaxRowsPerProvider: number;
  appEnv: AppEnv;
  /**
   * The address of this server, as its readers reach it: the portal's samples, the OpenAPI
   * document's first server and image URLs use it. Defaults to http://localhost:PORT.
   */
  publicUrl: string;
  /** The production server's address, shown beside this one; in production, this server's. */
  productionUrl: string | null;
  /** Where integrators ask for an account, a key or help: the docs and the OpenAPI contact show it. */
  supportEmail: string;
  logLevel: z.infer<typeof configSchema>['LOG_LEVEL'];
  workerEnabled: boolean;
  /**
   * Whether calls to providers' URLs may reach loopback, private, link-local and other
   * non-public addresses: true outside production by default (a sandbox receiver on 127.0.0.1),
   * false in production.
   */
  outboundAllowPrivate: boolean;
  /** Subgraphs served by services of their own (SUBGRAPH_URLS); the others run in this process. */
  subgraphUrls: Partial<Record<SubgraphName, string>>;
  /** Signs (API process) and checks (subgraph services) the caller passed across a hop; unset: no hop. */
  internalSigningSecret: string | null;
  /** How long a call to a subgraph service may take before its routes answer 503. */
  subgraphTimeoutMs: number;
  tracing: TracingConfig | null;
  /** The organisation's identity provider, where staff sign in to the back office; null: none configured. */
  oidc: OidcConfig | null;
  /**
   * Whether a person may sign in to the back office with an internal key (BACKOFFICE_BREAK_GLASS):
   * for a platform without an identity provider, or while it is down.
   */
  backOfficeBreakGlass: boolean;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** E-mail domains a person's address must belong to (lower case); empty: any. */
  allowedEmailDomains: string[];
  /** The claim whose values name roles (or groups of OIDC_ROLE_MAP); null: the map alone. */
  rolesClaim: string | null;
  /** Roles by group name or e-mail address, lower case. */
  roleMap: Record<string, StaffRole[]>;
  /** What the sign-in asks for, space-separated. */
  scopes: string;
  /** Whether signing out also ends the person's session at the IdP, when it offers an end-session endpoint. */
  signOutAtIdp: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name, value === '' ? undefined : value]),
  );
  const parsed = configSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  // No trailing slash, so that `${publicUrl}/path` never doubles it.
  const publicUrl = withoutTrailingSlash(values.PUBLIC_URL ?? `http://localhost:${values.PORT}`);
  const productionUrl = values.PRODUCTION_URL === undefined ? null : withoutTrailingSlash(values.PRODUCTION_URL);
  return {
    port: values.PORT,
    host: values.HOST,
    metrics:
      values.METRICS_PORT === undefined
        ? null
        : { port: values.METRICS_PORT, host: values.METRICS_HOST ?? values.HOST },
    database: values.DATABASE_URL
      ? { kind: 'postgresql', url: values.DATABASE_URL }
      : { kind: 'sqlite', path: values.SQLITE_PATH },
    redisUrl: values.REDIS_URL,
    geocoderUrl: values.GEOCODER_URL,
    imageDirectory: values.IMAGE_DIRECTORY,
    autoApprovalDelaySeconds: values.AUTO_APPROVAL_DELAY_SECONDS,
    jobLeaseSeconds: values.JOB_LEASE_SECONDS,
    requestLogMaxRowsPerProvider: values.REQUEST_LOG_MAX_ROWS_PER_PROVIDER,
    appEnv: values.APP_ENV,
    publicUrl,
    productionUrl: values.APP_ENV === 'production' ? publicUrl : productionUrl,
    supportEmail: values.SUPPORT_EMAIL,
    logLevel: values.LOG_LEVEL,
    workerEnabled: values.WORKER_ENABLED,
    outboundAllowPrivate: values.OUTBOUND_ALLOW_PRIVATE ?? values.APP_ENV !== 'production',
    subgraphUrls: values.SUBGRAPH_URLS ?? {},
    internalSigningSecret: values.INTERNAL_SIGNING_SECRET ?? null,
    subgraphTimeoutMs: values.SUBGRAPH_TIMEOUT_MS,
    tracing:
      values.OTEL_SDK_DISABLED || !(values.OTEL_EXPORTER_OTLP_ENDPOINT ?? values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
        ? null
        : {
            protocol: values.OTEL_EXPORTER_OTLP_PROTOCOL,
            sampler: values.OTEL_TRACES_SAMPLER,
            samplerRatio: values.OTEL_TRACES_SAMPLER_ARG ?? 1,
            serviceName: values.OTEL_SERVICE_NAME ?? null,
            instrumentations: (values.OTEL_NODE_ENABLED_INSTRUMENTATIONS ?? [...defaultTracedLibraries]).filter(
              (library) => !values.OTEL_NODE_DISABLED_INSTRUMENTATIONS?.includes(library),
            ),
          },
    oidc:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID && values.OIDC_CLIENT_SECRET
        ? {
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            allowedEmailDomains: values.OIDC_ALLOWED_EMAIL_DOMAIN ?? [],
            rolesClaim: values.OIDC_ROLES_CLAIM ?? null,
            roleMap: values.OIDC_ROLE_MAP ?? {},
            scopes: values.OIDC_SCOPES,
            signOutAtIdp: values.OIDC_SIGN_OUT_AT_IDP,
          }
        : null,
    backOfficeBreakGlass: values.BACKOFFICE_BREAK_GLASS,
  };
}
