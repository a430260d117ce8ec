import busboy from 'busboy';
import type { RequestHandler } from 'express';
import type { ValidationIssue } from '../graphql/shared/errors.js';

/** Parts of each kind read; parts with other names are read and dropped, those beyond are ignored. */
const MAX_PARTS = 20;

export interface MultipartOptions {
  /** The one file field, and its largest size in bytes. */
  fileField: string;
  maxFileBytes: number;
  /** Text fields taken (others are ignored), each at most this long. */
  textFields: readonly string[];
  maxTextBytes: number;
}

function tooLarge(loc: string, maxBytes: number): ValidationIssue {
  return {
    loc: [loc],
    msg: `At most ${maxBytes / (1024 * 1024)} MB`,
    type: 'too_long',
    ctx: { max_length: maxBytes },
  };
}

/**
 * Reads a `multipart/form-data` body into `req.body`: the file as base64 text (the graph's
 * inputs carry images so), the text fields as strings. A file over the limit is refused with
 * a 422 once the body has been read, without ever holding more than the limit in memory.
 * A request without a body leaves `req.body` empty, so that the body schema reports what is
 * missing; a body of another media type never gets here (415, mediaType.ts).
 */
export function multipartBody(options: MultipartOptions): RequestHandler {
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) {
      req.body = {};
      next();
      return;
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // busboy reports the limit once a file reaches it: one byte more lets a file of exactly the maximum through.
        limits: {
          files: MAX_PARTS,
          fileSize: options.maxFileBytes + 1,
          fields: MAX_PARTS,
          fieldSize: options.maxTextBytes + 1,
        },
      });
    } catch {
      res
        .status(422)
        .json([{ loc: ['body'], msg: 'The multipart body is malformed (boundary missing)', type: 'value_error' }]);
      return;
    }
    const body: Record<string, string> = {};
    const issues: ValidationIssue[] = [];
    parser.on('file', (name, stream) => {
      if (name !== options.fileField || options.fileField in body) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => issues.push(tooLarge(options.fileField, options.maxFileBytes)));
      stream.on('end', () => {
        if (!stream.truncated) body[options.fileField] = Buffer.concat(chunks).toString('base64');
      });
    });
    parser.on('field', (name, value, info) => {
      if (!options.textFields.includes(name) || name in body) return;
      if (info.valueTruncated)
        issues.push({ loc: [name], msg: `At most ${options.maxTextBytes} bytes`, type: 'string_too_long' });
      else body[name] = value;
    });
    parser.on('error', () => {
      if (!res.headersSent)
        res.status(422).json([{ loc: ['body'], msg: 'The multipart body is malformed', type: 'value_error' }]);
    });
    parser.on('close', () => {
      if (res.headersSent) return;
      if (issues.length > 0) {
        res.status(422).json(issues);
        return;
      }
      req.body = body;
      next();
    });
    req.pipe(parser);
  };
}
