/**
 * Remix classic compiler. The server build is ESM because the package is "type": "module";
 * server/portal.ts imports build/index.js and mounts it on Express.
 *
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  appDirectory: 'app',
  serverBuildPath: 'build/index.js',
  assetsBuildDirectory: 'public/build',
  publicPath: '/build/',
  serverModuleFormat: 'esm',
  serverPlatform: 'node',
  ignoredRouteFiles: ['**/.*'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
