import type { HandlerRegistry } from '../node-handler.ts';
import { conversationHandler } from './conversation.handler.ts';
import { documentScanHandler } from './document-scan.handler.ts';
import { dataValidationHandler } from './data-validation.handler.ts';
import { enterEmailHandler } from './enter-email.handler.ts';
import { faceNodeHandler } from './face-node.handler.ts';
import { permissionsHandler } from './permissions.handler.ts';
import { twoFactorHandler } from './two-factor.handler.ts';

/** Every node type's server side; `HandlerRegistry` makes a missing type a type error. */
export const HANDLERS: HandlerRegistry = {
	// START and END are never current: the runner passes START and completes on END.
	start: {},
	end: {},
	conversation: conversationHandler,
	data_validation: dataValidationHandler,
	enter_email: enterEmailHandler,
	permissions: permissionsHandler,
	// One handler serves the three two-factor types (their channel is all that differs).
	two_factor: twoFactorHandler,
	two_factor_email: twoFactorHandler,
	two_factor_sms: twoFactorHandler,
	// Face nodes decide from uploaded evidence; a user's cancel takes the closest outcome the type has.
	liveness_detection: faceNodeHandler('noFace'),
	face_scan: faceNodeHandler('cancelled'),
	face_compare: faceNodeHandler('imageUnavailable'),
	recognition: faceNodeHandler('noFace'),
	// The server reads the uploaded document image; a user's cancel is userCancelled.
	document_scan: documentScanHandler
};
