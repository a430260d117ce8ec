import { imageRules } from '../../graphql/offers/fieldRules.js';
import { IMAGE_MAX_BYTES } from '../../platform/images/index.js';
import { defineRoute } from '../route.js';
import { idInPath } from '../schemas/inputs.js';
import { graphql } from '../subgraphs/graphql.js';
import { z } from '../zod.js';

const ImageUploadFile = z
  .object({
    file: z.string().openapi({
      type: 'string',
      format: 'binary',
      description: `A PNG or JPEG, 400x600 to 800x1200 pixels, portrait 2:3, at most ${IMAGE_MAX_BYTES / (1024 * 1024)} MB.`,
    }),
    credit: imageRules.credit.nullable().optional().openapi({ description: 'Who to credit for the image.' }),
  })
  .openapi('ImageUploadFile');

export const uploadImage = defineRoute({
  method: 'post',
  path: '/public/offers/v1/{offer_id}/image',
  tag: 'Images',
  operationId: 'UploadImage',
  summary: 'Upload an offer image',
  description:
    'Sets the image of one of your offers (an event or a product), sent as a multipart form: the `file` and an ' +
    "optional `credit`. The offer's answers then carry the image's `url`, served by this platform.",
  subgraph: 'offers',
  document: graphql.offers(
    `mutation UploadImage($offerId: Int!, $file: String!, $credit: String) {
      setOfferImage(offerId: $offerId, file: $file, credit: $credit) { id }
    }`,
  ),
  request: { params: z.object({ offer_id: idInPath }), body: ImageUploadFile, bodyType: 'multipart' },
  variables: ({ params, body }) => ({ offerId: params.offer_id, file: body.file, credit: body.credit ?? null }),
  response: { status: 204, description: 'The image is set.' },
  errors: [403, 404],
});

export const imageRoutes = [uploadImage];
