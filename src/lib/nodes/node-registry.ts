import type { Component } from 'svelte';
import type { NodeType } from '#lib/domain/flow/node-types.ts';
import DocumentScanNode from '#lib/nodes/document-scan/document-scan-node.svelte';
import ConversationNode from '#lib/nodes/conversation/conversation-node.svelte';
import EnterEmailNode from '#lib/nodes/enter-email/enter-email-node.svelte';
import FaceCompareNode from '#lib/nodes/face-compare/face-compare-node.svelte';
import FaceScanNode from '#lib/nodes/face-scan/face-scan-node.svelte';
import LivenessDetectionNode from '#lib/nodes/liveness-detection/liveness-detection-node.svelte';
import RecognitionNode from '#lib/nodes/recognition/recognition-node.svelte';
import PermissionsNode from '#lib/nodes/permissions/permissions-node.svelte';
import ServerNode from '#lib/nodes/server-node/server-node.svelte';
import TwoFactorNode from '#lib/nodes/two-factor/two-factor-node.svelte';
import type { NodeProps } from '#lib/flow/node-props.ts';

/**
 * The component for each node type. Exhaustive by type: a new node type without a component
 * fails the type check. It lives with the nodes, not in flow/: the node components use flow/
 * (translator, node props, uploads), so a registry in flow/ made the two folders import each other.
 */
export const NODE_COMPONENTS = {
	start: ServerNode,
	end: ServerNode,
	data_validation: ServerNode,
	conversation: ConversationNode,
	enter_email: EnterEmailNode,
	two_factor: TwoFactorNode,
	two_factor_email: TwoFactorNode,
	two_factor_sms: TwoFactorNode,
	permissions: PermissionsNode,
	liveness_detection: LivenessDetectionNode,
	face_scan: FaceScanNode,
	face_compare: FaceCompareNode,
	recognition: RecognitionNode,
	document_scan: DocumentScanNode
} satisfies { [K in NodeType]: Component<NodeProps<K>> };

/** Node types whose screen is the avatar's conversation (the stage gets the most room). */
export const TALKING_NODES: ReadonlySet<NodeType> = new Set(['conversation']);

/**
 * Node types whose screen is the user's own camera: the camera and its guidance own the screen, the
 * avatar shrinks to a tile, and the stage shows no second (mirrored) copy of the camera.
 */
export const CAMERA_NODES: ReadonlySet<NodeType> = new Set(['face_scan', 'liveness_detection', 'face_compare', 'recognition', 'document_scan']);
