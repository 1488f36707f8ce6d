import type { FastifyPluginAsync } from 'fastify';
import { CAD_FONTS_PATH } from '@xcad/cad/text';
import { sendProtocolError } from '../../plugins/errors';
import { CadFontError, createCadFontsService } from './cad-fonts.service';

// Decision 0025: GET /api/site/cad-fonts/{sans|serif}.woff?v=VERSION&c=CODES — a WOFF subset of a
// font the CAD engine ships, with the characters `c` lists (text/shipped.ts encodes them). The
// URL names its content, so the answer is cached for a year by browsers and proxies.

const IMMUTABLE = 'public, max-age=31536000, immutable';

export const cadFontsRoutes: FastifyPluginAsync = async (app) => {
  const fonts = createCadFontsService();

  app.get<{ Params: { file: string }; Querystring: Record<string, unknown> }>(`${CAD_FONTS_PATH}/:file`, async (request, reply) => {
    try {
      const woff = fonts.subset(request.params.file, request.query['v'], request.query['c']);
      return reply
        .header('content-type', 'font/woff')
        .header('cache-control', IMMUTABLE)
        .send(Buffer.from(woff.buffer, woff.byteOffset, woff.byteLength));
    } catch (error) {
      if (!(error instanceof CadFontError)) throw error;
      request.log.info({ reason: error.message }, 'cad font refused');
      return sendProtocolError(reply, error.refusal);
    }
  });
};
