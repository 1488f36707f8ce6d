import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@xcad/db';
import { ZAuditQuery } from '@xcad/protocol';
import { operatorInput } from '../../plugins/operator-guard';
import { readAudit } from './audit.service';

// The audit log, read by 管理员 only (decision 0042). Nothing here writes it: every change writes its
// own entry in its own transaction through audit.service's recordAudit.
//
//   GET /api/operator/audit?page=&operator=&action=&targetType=&targetId=&from=&to=   200 ZAuditPage

export const auditRoutes: FastifyPluginAsync<{ db: Kysely<Database> }> = async (app, { db }) => {
  app.operatorRoute({
    method: 'GET',
    url: '/api/operator/audit',
    roles: ['admin'],
    handler: async (request) => readAudit(db, operatorInput(ZAuditQuery, request.query)),
  });
};
