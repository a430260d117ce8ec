/** Deployment environments. School-platform mocks and sandbox mutations do not exist in production. */
export const appEnvironments = ['development', 'integration', 'production'] as const;
export type AppEnv = (typeof appEnvironments)[number];

export function hasSandboxFeatures(appEnv: AppEnv): boolean {
  return appEnv !== 'production';
}
