// One contract per node type: its outcomes, what the page receives of it (typed), and what it uploads
// where it has an evidence route. A new node type that is not listed here fails the type check, and
// so does a handler whose view returns anything but its contract's props.
import { z } from 'zod';
import { OUTCOME_SHAPE, FIXED_OUTCOME_KEYS, type NodeType } from '../flow/node-types.ts';
import { conversationViewPropsSchema } from './conversation.contract.ts';
import { documentEvidenceSchema, documentViewPropsSchema } from './document-scan.contract.ts';
import { enterEmailViewPropsSchema } from './enter-email.contract.ts';
import { faceEvidenceSchema, faceViewPropsSchema } from './face.contract.ts';
import { twoFactorViewPropsSchema } from './two-factor.contract.ts';

/** Nodes the page shows nothing of its own for (start and end are never current; the rest need no props). */
const noProps = z.object({});

export interface NodeContract {
	/** Fixed outcome keys, or how the node names its successors. */
	outcomes: readonly string[] | 'conditional' | 'single' | 'none';
	/** What the page receives in `node.props`. */
	viewProps: z.ZodObject;
	/** The body of `POST /api/client/nodes/{nodeId}/evidence`, for camera nodes. */
	evidence?: z.ZodType;
}

export const NODE_CONTRACTS = {
	start: { outcomes: 'single', viewProps: noProps },
	end: { outcomes: 'none', viewProps: noProps },
	conversation: { outcomes: 'conditional', viewProps: conversationViewPropsSchema },
	data_validation: { outcomes: 'conditional', viewProps: noProps },
	permissions: { outcomes: FIXED_OUTCOME_KEYS.permissions, viewProps: noProps },
	enter_email: { outcomes: FIXED_OUTCOME_KEYS.enter_email, viewProps: enterEmailViewPropsSchema },
	two_factor: { outcomes: FIXED_OUTCOME_KEYS.two_factor, viewProps: twoFactorViewPropsSchema },
	two_factor_email: { outcomes: FIXED_OUTCOME_KEYS.two_factor_email, viewProps: twoFactorViewPropsSchema },
	two_factor_sms: { outcomes: FIXED_OUTCOME_KEYS.two_factor_sms, viewProps: twoFactorViewPropsSchema },
	liveness_detection: { outcomes: FIXED_OUTCOME_KEYS.liveness_detection, viewProps: faceViewPropsSchema, evidence: faceEvidenceSchema },
	face_scan: { outcomes: FIXED_OUTCOME_KEYS.face_scan, viewProps: faceViewPropsSchema, evidence: faceEvidenceSchema },
	face_compare: { outcomes: FIXED_OUTCOME_KEYS.face_compare, viewProps: faceViewPropsSchema, evidence: faceEvidenceSchema },
	recognition: { outcomes: FIXED_OUTCOME_KEYS.recognition, viewProps: faceViewPropsSchema, evidence: faceEvidenceSchema },
	document_scan: { outcomes: FIXED_OUTCOME_KEYS.document_scan, viewProps: documentViewPropsSchema, evidence: documentEvidenceSchema }
} as const satisfies { [K in NodeType]: NodeContract & { outcomes: (typeof OUTCOME_SHAPE)[K] extends 'fixed' ? readonly string[] : (typeof OUTCOME_SHAPE)[K] } };

/** What the page receives in `node.props` for a node of type T (a union for a union of types). */
export type ViewPropsOf<T extends NodeType> = T extends NodeType ? z.infer<(typeof NODE_CONTRACTS)[T]['viewProps']> : never;

const nodeViewBase = {
	id: z.string(),
	/** The avatar's words for this node (already in the session language). */
	speech: z.string().optional(),
	/** Conversation: the page waits for a reply (false: speak, then acknowledge). */
	expectsReply: z.boolean().optional(),
	/** Conversation: the last reply matched nothing; the avatar asks again. */
	repeated: z.boolean().optional()
};

const viewSchemaOf = <T extends NodeType, P extends z.ZodObject>(type: T, props: P) => z.object({ ...nodeViewBase, type: z.literal(type), props });

/** Each type's node view; `satisfies` makes a type missing here a type error. */
const VIEW_SCHEMAS = {
	start: viewSchemaOf('start', NODE_CONTRACTS.start.viewProps),
	end: viewSchemaOf('end', NODE_CONTRACTS.end.viewProps),
	conversation: viewSchemaOf('conversation', NODE_CONTRACTS.conversation.viewProps),
	data_validation: viewSchemaOf('data_validation', NODE_CONTRACTS.data_validation.viewProps),
	permissions: viewSchemaOf('permissions', NODE_CONTRACTS.permissions.viewProps),
	enter_email: viewSchemaOf('enter_email', NODE_CONTRACTS.enter_email.viewProps),
	two_factor: viewSchemaOf('two_factor', NODE_CONTRACTS.two_factor.viewProps),
	two_factor_email: viewSchemaOf('two_factor_email', NODE_CONTRACTS.two_factor_email.viewProps),
	two_factor_sms: viewSchemaOf('two_factor_sms', NODE_CONTRACTS.two_factor_sms.viewProps),
	liveness_detection: viewSchemaOf('liveness_detection', NODE_CONTRACTS.liveness_detection.viewProps),
	face_scan: viewSchemaOf('face_scan', NODE_CONTRACTS.face_scan.viewProps),
	face_compare: viewSchemaOf('face_compare', NODE_CONTRACTS.face_compare.viewProps),
	recognition: viewSchemaOf('recognition', NODE_CONTRACTS.recognition.viewProps),
	document_scan: viewSchemaOf('document_scan', NODE_CONTRACTS.document_scan.viewProps),
} satisfies { [K in NodeType]: z.ZodObject<{ type: z.ZodLiteral<K> } & typeof nodeViewBase & { props: (typeof NODE_CONTRACTS)[K]['viewProps'] }> };

/** What the page may know of the current node: its id, its words and its type's props (checked by the server before sending). */
export const nodeViewSchema = z
	.discriminatedUnion('type', [
		VIEW_SCHEMAS.start,
		VIEW_SCHEMAS.end,
		VIEW_SCHEMAS.conversation,
		VIEW_SCHEMAS.data_validation,
		VIEW_SCHEMAS.permissions,
		VIEW_SCHEMAS.enter_email,
		VIEW_SCHEMAS.two_factor,
		VIEW_SCHEMAS.two_factor_email,
		VIEW_SCHEMAS.two_factor_sms,
		VIEW_SCHEMAS.liveness_detection,
		VIEW_SCHEMAS.face_scan,
		VIEW_SCHEMAS.face_compare,
		VIEW_SCHEMAS.recognition,
		VIEW_SCHEMAS.document_scan,
	])
	.meta({ id: 'PageNodeView' });
export type NodeView = z.infer<typeof nodeViewSchema>;
type ViewsByType = { [K in NodeType]: z.infer<(typeof VIEW_SCHEMAS)[K]> };
/** The view of a node of type T (a union for a union of types; an indexed type, so a view of one type is a view of its group). */
export type NodeViewOf<T extends NodeType> = ViewsByType[T];

/** Narrows a node view to a group of types (a component written for several, like the face capture). */
export const isViewOf = <T extends NodeType>(view: NodeView, types: readonly T[]): view is NodeViewOf<T> => (types as readonly NodeType[]).includes(view.type);
