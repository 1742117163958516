// Generated from the Sluice server's OpenAPI document (GET /api/openapi.json) by openapi-typescript.
// Do not edit: run `npm run client:generate` (repository root) after changing a route's schemas.

export interface paths {
    "/api/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the API key belongs to */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Me"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List reachable workspaces */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a workspace */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspaceId}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List members */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Add a member by email */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: email */
                        email: string;
                        /**
                         * @default member
                         * @enum {string}
                         */
                        role?: "admin" | "member";
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspaceId}/members/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspaceId}/env": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List environment variable names (values are write-only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Set environment variables */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        variables: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workspaces/{workspaceId}/env/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an environment variable */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List workflows of a workspace */
        get: {
            parameters: {
                query: {
                    workspaceId: string;
                    folderId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowList"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a workflow with a state */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        workspaceId: string;
                        name: string;
                        description?: string;
                        folderId?: string | null;
                        state?: unknown;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a workflow and its draft state */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a workflow */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update name, description, folder or draft state */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        description?: string;
                        folderId?: string | null;
                        state?: unknown;
                        chatPublic?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export as a sluice.workflow document (literal secrets replaced by {{VARIABLE}} references) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowExport"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a draft workflow from a sluice.workflow document */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        workspaceId: string;
                        document: unknown;
                        folderId?: string | null;
                        name?: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowImportResult"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deploy the draft as the next version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeployResult"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Undeploy */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Undeployed"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deployment history */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeploymentList"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/deployments/{version}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Activate an earlier version */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    version: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeployResult"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** isDeployed, deployedAt, needsRedeployment */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowStatus"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflows/{workflowId}/execute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the active deployment (JSON, SSE with stream: true, async with X-Execution-Mode: async) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description true switches the response to Server-Sent Events */
                        stream?: boolean;
                        /** @description blockName.attribute items to stream */
                        selectedOutputs?: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteResult"];
                    };
                };
                /** @description Queued (X-Execution-Mode: async), or paused at an approval block */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteAcceptedOrPaused"];
                    };
                };
                /** @description The run failed */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteFailure"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/me/usage-limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Execution rate limits and usage of the caller */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List folders */
        get: {
            parameters: {
                query: {
                    workspaceId: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a folder */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        workspaceId: string;
                        name: string;
                        parentId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/folders/{folderId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a folder */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a folder (its workflows move to the root) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Rename or move a folder */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    folderId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        parentId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (hints only) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API key (shown once) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name: string;
                        workspaceId?: string | null;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    keyId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Query execution logs (cursor-paginated, rate-limited) */
        get: {
            parameters: {
                query: {
                    workspaceId: string;
                    workflowIds?: string;
                    folderIds?: string;
                    triggers?: string;
                    level?: "info" | "error";
                    startDate?: string;
                    endDate?: string;
                    executionId?: string;
                    parentExecutionId?: string;
                    deploymentVersion?: string;
                    minDurationMs?: string;
                    maxDurationMs?: string;
                    minCost?: string;
                    maxCost?: string;
                    model?: string;
                    limit?: string;
                    cursor?: string;
                    order?: "desc" | "asc";
                    details?: "basic" | "full";
                    includeTraceSpans?: "0" | "1" | "true" | "false";
                    includeFinalOutput?: "0" | "1" | "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogPage"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/logs/{logId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Log detail */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    logId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogDetail"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/logs/executions/{executionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Execution detail with the state that ran */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    executionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecutionDetail"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{executionId}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a queued, running or paused execution wherever it runs (200 cancelled, 202 still stopping, 409 finished) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    executionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelAnswer"];
                    };
                };
                /** @description Asked to stop; still stopping */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelAnswer"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions/{executionId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve or reject a run paused at an approval block; it goes on in a worker (409 when it is not waiting) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    executionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        approved: boolean;
                        data?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResumeAccepted"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of a workspace waiting for an approval (status=paused) */
        get: {
            parameters: {
                query: {
                    workspaceId: string;
                    status: "paused";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PausedRunList"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download an uploaded file through its signed URL */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    fileId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers (no database call) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: database, migrations and worker checks; 503 names the failing ones */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Manual run of the draft with the Input Format values (SSE progress unless ?stream=false) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        input?: {
                            [key: string]: unknown;
                        };
                        triggerBlockId?: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/trigger/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Inbound webhook trigger (any content type; optional X-Sluice-Signature) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/options": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether sign-up is allowed and whether first-run setup is pending */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/setup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** First run: whether the owner account is still to be created, and whether ?token= is the setup token */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** First run: create the owner account with the setup token (signs in) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        token: string;
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-in": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Web app sign-in (sets the session cookie) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Web app sign-up (when SLUICE_ALLOW_SIGNUP=true) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        email: string;
                        password: string;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the web app session */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user and CSRF token */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/jobs/{taskId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status of an async execution */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    taskId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobStatus"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List completion webhook subscriptions */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionList"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a subscription (secret is write-only) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        url: string;
                        secret?: string | null;
                        includeFinalOutput?: boolean;
                        includeTraceSpans?: boolean;
                        includeRateLimits?: boolean;
                        includeUsageData?: boolean;
                        levelFilter?: ("info" | "error")[];
                        triggerFilter?: ("api" | "webhook" | "schedule" | "manual" | "chat")[];
                        active?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a subscription */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a subscription */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Update a subscription */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        url?: string;
                        secret?: string | null;
                        includeFinalOutput?: boolean;
                        includeTraceSpans?: boolean;
                        includeRateLimits?: boolean;
                        includeUsageData?: boolean;
                        levelFilter?: ("info" | "error")[];
                        triggerFilter?: ("api" | "webhook" | "schedule" | "manual" | "chat")[];
                        active?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed test event */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Delivery history with attempts */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryPage"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{workflowId}/webhooks/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again (new delivery id, same event) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryResponse"];
                    };
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Chat with a deployed workflow (streams by default) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        message: string;
                        conversationId?: string;
                        stream?: boolean;
                        selectedOutputs?: string[];
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Error */
                default: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "workflow.execution.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A run completed (signed with the subscription secret: Service-signature t=…,v1=…) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["WebhookEvent"];
                };
            };
            responses: {
                /** @description Any 2xx acknowledges the delivery */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Error: {
            error: string;
            code: string;
            details?: {
                path?: string;
                message?: string;
            }[];
        };
        Me: {
            userId: string;
            email: string;
            workspaces: {
                id: string;
                name: string;
                plan: string;
            }[];
        };
        WorkflowSummary: {
            id: string;
            workspaceId: string;
            folderId: string | null;
            name: string;
            description: string;
            chatPublic: boolean;
            isDeployed: boolean;
            activeVersion: number | null;
            deployedAt: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            updatedAt: string;
        };
        Workflow: {
            id: string;
            workspaceId: string;
            folderId: string | null;
            name: string;
            description: string;
            chatPublic: boolean;
            isDeployed: boolean;
            activeVersion: number | null;
            deployedAt: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            updatedAt: string;
            /** @description A workflow state (SPEC §3) */
            state: {
                blocks: {
                    [key: string]: {
                        id: string;
                        type: string;
                        name: string;
                        config: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                edges: ({
                    id: string;
                    source: string;
                    target: string;
                    sourceHandle?: string;
                } & {
                    [key: string]: unknown;
                })[];
                loops: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
                parallels: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            } & {
                [key: string]: unknown;
            };
        };
        WorkflowList: {
            data: components["schemas"]["WorkflowSummary"][];
        };
        WorkflowResponse: {
            data: components["schemas"]["Workflow"];
        };
        DeployResult: {
            version: number;
            /** @description ISO 8601 */
            deployedAt: string;
        };
        Undeployed: {
            /** @constant */
            isDeployed: false;
        };
        Deployment: {
            id: string;
            workflowId: string;
            version: number;
            isActive: boolean;
            /** @description ISO 8601 */
            createdAt: string;
            createdBy: string | null;
        };
        DeploymentList: {
            data: components["schemas"]["Deployment"][];
        };
        WorkflowStatus: {
            isDeployed: boolean;
            deployedAt: string | null;
            activeVersion?: number;
            needsRedeployment: boolean;
        };
        WorkflowDocument: {
            /** @constant */
            format: "sluice.workflow";
            /** @constant */
            version: 1;
            name: string;
            description: string;
            /** @description A workflow state (SPEC §3) */
            state: {
                blocks: {
                    [key: string]: {
                        id: string;
                        type: string;
                        name: string;
                        config: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                edges: ({
                    id: string;
                    source: string;
                    target: string;
                    sourceHandle?: string;
                } & {
                    [key: string]: unknown;
                })[];
                loops: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
                parallels: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            } & {
                [key: string]: unknown;
            };
            /** @description Environment variables the state references */
            environment: string[];
        };
        WorkflowExport: {
            data: components["schemas"]["WorkflowDocument"];
            /** @description Literal secrets the export replaced by {{variable}} references */
            replacedSecrets: {
                path: string;
                variable: string;
            }[];
        };
        WorkflowImportResult: {
            data: components["schemas"]["Workflow"];
            /** @description Referenced variables the workspace does not have yet */
            missingEnvironment: string[];
        };
        /** @description The answer of a run without a response block (a response block answers with its own status and body) */
        ExecuteResult: {
            /** @constant */
            success: true;
            executionId: string;
            output: unknown;
            metadata: {
                duration: number;
                /** @description ISO 8601 */
                startTime: string;
                /** @description ISO 8601 */
                endTime: string;
            };
        };
        ExecuteFailure: {
            /** @constant */
            success: false;
            executionId: string;
            error: string;
            /** @constant */
            code: "EXECUTION_FAILED";
            output: unknown;
            metadata: {
                duration: number;
                /** @description ISO 8601 */
                startTime: string;
                /** @description ISO 8601 */
                endTime: string;
            };
        };
        ExecuteAccepted: {
            /** @constant */
            success: true;
            /** @constant */
            async: true;
            taskId: string;
            /** @description Same as taskId */
            jobId: string;
            executionId: string;
            /** @constant */
            status: "queued";
            /** @description ISO 8601 */
            createdAt: string;
            links: {
                status: string;
            };
            statusUrl: string;
        };
        /** @description The run paused at an approval block (202) */
        ExecutionPaused: {
            executionId: string;
            /** @constant */
            status: "paused";
            links: {
                resume: string;
            };
        };
        ExecuteAcceptedOrPaused: components["schemas"]["ExecuteAccepted"] | components["schemas"]["ExecutionPaused"];
        ResumeAccepted: {
            data: {
                executionId: string;
                /** @constant */
                status: "resuming";
            };
        };
        CancelAnswer: {
            data: {
                executionId: string;
                /** @enum {string} */
                status: "cancelled" | "cancelling";
            };
        };
        PausedRunList: {
            data: {
                executionId: string;
                workflowId: string;
                blockId: string;
                message: string | null;
                /** @description ISO 8601 */
                pausedAt: string;
                timeoutAt: string | null;
                defaultDecision: ("approve" | "reject") | null;
            }[];
        };
        /** @description An SSE chunk record */
        StreamChunk: {
            blockId: string;
            chunk: string;
        };
        /** @description The final SSE record of a streamed run */
        StreamDone: {
            /** @constant */
            event: "done";
            success: boolean;
            output: unknown;
            metadata: {
                duration: number;
            };
            error?: string;
            /** @constant */
            cancelled?: true;
            /**
             * @description The run paused for an approval; resume it at links.resume
             * @constant
             */
            paused?: true;
            executionId?: string;
            /** @constant */
            status?: "paused";
            links?: {
                resume: string;
            };
        };
        JobStatus: {
            /** @constant */
            success: true;
            taskId: string;
            /** @enum {string} */
            status: "queued" | "processing" | "paused" | "completed" | "failed" | "cancelled";
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            startedAt?: string;
            /** @description ISO 8601 */
            completedAt?: string;
            output?: unknown;
            error?: string;
            metadata: {
                workflowId: string;
                executionId: string;
                duration?: number;
                /** @description ISO 8601 */
                startTime?: string;
                /** @description ISO 8601 */
                endTime?: string;
            };
        };
        Limits: {
            workflowExecutionRateLimit: {
                sync: {
                    limit: number | null;
                    remaining: number | null;
                    /** @description ISO 8601 */
                    resetAt: string;
                };
                async: {
                    limit: number | null;
                    remaining: number | null;
                    /** @description ISO 8601 */
                    resetAt: string;
                };
            };
            usage: {
                currentPeriodCost: number;
                limit: number | null;
                plan: string;
                isExceeded: boolean;
            };
        };
        TraceSpan: {
            id: string;
            blockId: string;
            name: string;
            type: string;
            /** @enum {string} */
            status: "success" | "error" | "skipped";
            /** @description ISO 8601 */
            startTime: string;
            /** @description ISO 8601 */
            endTime: string;
            duration: number;
            input: unknown;
            output: unknown;
            error?: string;
            children?: components["schemas"]["TraceSpan"][];
        } & {
            [key: string]: unknown;
        };
        LogEntry: {
            id: string;
            workflowId: string;
            executionId: string;
            /** @enum {string} */
            level: "info" | "error";
            trigger: string;
            /** @description ISO 8601 */
            startedAt: string;
            /** @description ISO 8601 */
            endedAt: string;
            totalDurationMs: number;
            files: unknown;
            /** @description The deployment version that ran; null for a manual run of the draft */
            deploymentVersion: number | null;
            /** @description {total}, or the full cost with details=full */
            cost: {
                total: number;
                tokens: {
                    prompt: number;
                    completion: number;
                    total: number;
                };
                models: {
                    [key: string]: {
                        input: number;
                        output: number;
                        total: number;
                        tokens: {
                            prompt: number;
                            completion: number;
                            total: number;
                        };
                    };
                };
            } | {
                total: number;
            };
            /** @description With details=full */
            workflow?: {
                id: string;
                name: string;
                description: string;
            };
            /** @description With includeTraceSpans / includeFinalOutput */
            executionData?: {
                traceSpans?: components["schemas"]["TraceSpan"][];
                finalOutput?: unknown;
            };
        };
        LogPage: {
            data: components["schemas"]["LogEntry"][];
            nextCursor: string | null;
            limits: components["schemas"]["Limits"];
        };
        LogDetail: {
            data: {
                id: string;
                workflowId: string;
                executionId: string;
                /** @enum {string} */
                level: "info" | "error";
                trigger: string;
                /** @description ISO 8601 */
                startedAt: string;
                /** @description ISO 8601 */
                endedAt: string;
                totalDurationMs: number;
                files: unknown;
                /** @description The deployment version that ran; null for a manual run of the draft */
                deploymentVersion: number | null;
                /** @enum {string} */
                status: "success" | "error" | "cancelled";
                /** @description The run whose workflow block started this one (a sub-workflow) */
                parentExecutionId: string | null;
                /** @description X-Request-Id of the request that started the run (null for schedules) */
                requestId: string | null;
                /** @description For a run that paused for an approval (README "Human approval") */
                approvals: {
                    pauses: number;
                    /** @description Time spent waiting for decisions (not in totalDurationMs) */
                    pausedMs: number;
                    firstStartedAt: string;
                    decisions: {
                        [key: string]: {
                            approved: boolean;
                            data: unknown;
                            decidedBy: string | null;
                            /** @description ISO 8601 */
                            decidedAt: string;
                        };
                    };
                } | null;
                cost: {
                    total: number;
                    tokens: {
                        prompt: number;
                        completion: number;
                        total: number;
                    };
                    models: {
                        [key: string]: {
                            input: number;
                            output: number;
                            total: number;
                            tokens: {
                                prompt: number;
                                completion: number;
                                total: number;
                            };
                        };
                    };
                };
                workflow: {
                    id: string;
                    name: string;
                    description: string;
                };
                executionData: {
                    traceSpans?: components["schemas"]["TraceSpan"][];
                    finalOutput?: unknown;
                };
                limits: components["schemas"]["Limits"];
            };
        };
        ExecutionDetail: {
            executionId: string;
            workflowId: string;
            /** @description A workflow state (SPEC §3) */
            workflowState: {
                blocks: {
                    [key: string]: {
                        id: string;
                        type: string;
                        name: string;
                        config: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                };
                edges: ({
                    id: string;
                    source: string;
                    target: string;
                    sourceHandle?: string;
                } & {
                    [key: string]: unknown;
                })[];
                loops: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
                parallels: {
                    [key: string]: {
                        id: string;
                        nodes: string[];
                    } & {
                        [key: string]: unknown;
                    };
                };
            } & {
                [key: string]: unknown;
            };
            executionMetadata: {
                trigger: string;
                /** @description ISO 8601 */
                startedAt: string;
                /** @description ISO 8601 */
                endedAt: string;
                totalDurationMs: number;
                cost: {
                    total: number;
                    tokens: {
                        prompt: number;
                        completion: number;
                        total: number;
                    };
                    models: {
                        [key: string]: {
                            input: number;
                            output: number;
                            total: number;
                            tokens: {
                                prompt: number;
                                completion: number;
                                total: number;
                            };
                        };
                    };
                };
                deploymentVersion: number | null;
                requestId: string | null;
            };
            limits: components["schemas"]["Limits"];
        };
        Subscription: {
            id: string;
            workflowId: string;
            url: string;
            hasSecret: boolean;
            includeFinalOutput: boolean;
            includeTraceSpans: boolean;
            includeRateLimits: boolean;
            includeUsageData: boolean;
            levelFilter: string[];
            triggerFilter: string[];
            active: boolean;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            updatedAt: string;
        };
        SubscriptionResponse: {
            data: components["schemas"]["Subscription"];
        };
        SubscriptionList: {
            data: components["schemas"]["Subscription"][];
        };
        Delivery: {
            id: string;
            subscriptionId: string;
            eventId: string;
            eventType: string;
            executionId: string | null;
            status: string;
            attemptCount: number;
            nextAttemptAt: string | null;
            lastStatusCode: number | null;
            lastError: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            completedAt: string | null;
            payload: unknown;
            attempts: {
                attempt: number;
                /** @description ISO 8601 */
                startedAt: string;
                durationMs: number;
                statusCode: number | null;
                error: string | null;
            }[];
        };
        DeliveryResponse: {
            data: components["schemas"]["Delivery"];
        };
        DeliveryPage: {
            data: components["schemas"]["Delivery"][];
            nextCursor: string | null;
        };
        WebhookEvent: {
            id: string;
            /** @constant */
            type: "workflow.execution.completed";
            /** @description Unix milliseconds */
            timestamp: number;
            data: {
                workflowId: string;
                executionId: string;
                status: string;
                level: string;
                trigger: string;
                /** @description ISO 8601 */
                startedAt: string;
                /** @description ISO 8601 */
                endedAt: string;
                totalDurationMs: number;
                cost: {
                    total: number;
                    tokens: {
                        prompt: number;
                        completion: number;
                        total: number;
                    };
                    models: {
                        [key: string]: {
                            input: number;
                            output: number;
                            total: number;
                            tokens: {
                                prompt: number;
                                completion: number;
                                total: number;
                            };
                        };
                    };
                };
                files: unknown;
                deploymentVersion: number | null;
                finalOutput?: unknown;
                traceSpans?: components["schemas"]["TraceSpan"][];
                rateLimits?: unknown;
                usage?: unknown;
            } & {
                [key: string]: unknown;
            };
            links: {
                log: string;
                execution: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
