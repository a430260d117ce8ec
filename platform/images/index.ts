/** The one offer-image module: format sniffing, the product's image rules, and image storage. */
export {
  hasCompleteStructure,
  readImageInfo,
  sniffImageFormat,
  type ImageFormat,
  type ImageInfo,
} from './imageFormat.js';
export {
  checkBase64Image,
  checkImage,
  decodeBase64Image,
  hasImageRatio,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_HEIGHT,
  IMAGE_MAX_WIDTH,
  IMAGE_MIN_HEIGHT,
  IMAGE_MIN_WIDTH,
  IMAGE_RATIO,
  IMAGE_RATIO_HEIGHT,
  IMAGE_RATIO_TOLERANCE,
  IMAGE_RATIO_WIDTH,
  type Base64ImageCheck,
  type ImageCheck,
  type ImageRejection,
  type ImageRejectionType,
} from './imageRules.js';
export {
  contentTypeOf,
  InMemoryImageStore,
  isImageKey,
  LocalDiskImageStore,
  newImageKey,
  type ImageStore,
  type LocalDiskImageStoreOptions,
} from './imageStore.js';
