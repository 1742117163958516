// Generated from the Sluice server's OpenAPI document (GET /api/openapi.json) by openapi-typescript.
// Do not edit: run `npm run client:generate` (repository root) after changing a route's schemas.

export interface paths {
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
                /** @description Not ready: the failing checks are named */
                503: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI 3.1 document (the interactive reference is at /docs) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics (404 when SLUICE_METRICS_ENABLED=false; bearer token when SLUICE_METRICS_TOKEN is set) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuthOptions"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                query?: {
                    token?: string;
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SetupState"];
                    };
                };
                400: components["responses"]["BadRequest"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignedIn"];
                    };
                };
                400: components["responses"]["BadRequest"];
                403: components["responses"]["Forbidden"];
                /** @description The owner account exists already (SETUP_COMPLETE) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignedIn"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                429: components["responses"]["TooManyRequests"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignedIn"];
                    };
                };
                400: components["responses"]["BadRequest"];
                403: components["responses"]["Forbidden"];
                /** @description An account with this email already exists (CONFLICT) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                204: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** The signed-in user, CSRF token and workspaces */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/invites/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What an invite link offers (404 unknown or revoked; 410 INVITE_EXPIRED or INVITE_USED) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InvitePreview"];
                    };
                };
                404: components["responses"]["NotFound"];
                410: components["responses"]["Gone"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/invites/{token}/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invite: a new address sets its password, an existing account gives its own; joins and signs in */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    token: string;
                };
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SignedIn"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                404: components["responses"]["NotFound"];
                /** @description The address has an account without a password, or one was created meanwhile (CONFLICT) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                410: components["responses"]["Gone"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                429: components["responses"]["TooManyRequests"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Me"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/block-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The block types workflows are built from: palette entry, form fields, outputs, config JSON Schema */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BlockTypeList"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceList"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkspaceResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MemberList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                         * @description admin, editor or viewer (`member` is read as editor)
                         * @enum {string}
                         */
                        role?: "admin" | "editor" | "viewer" | "member";
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AddedMemberResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Change a member's role (owners and admins; the owner cannot be demoted) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                    userId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description admin, editor or viewer (`member` is read as editor)
                         * @enum {string}
                         */
                        role: "admin" | "editor" | "viewer" | "member";
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MemberResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workspaces/{workspaceId}/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending invites (no links) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["InviteList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Create a one-time invite link (owners and admins; the link is shown once) */
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
                        /**
                         * @description admin, editor or viewer (`member` is read as editor)
                         * @enum {string}
                         */
                        role: "admin" | "editor" | "viewer" | "member";
                        /**
                         * Format: email
                         * @description Only this address may accept
                         */
                        email?: string;
                        /**
                         * @description Hours until the link stops working (default 168, at most 720)
                         * @default 168
                         */
                        expiresInHours?: number;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedInviteResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workspaces/{workspaceId}/invites/{inviteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invite */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workspaceId: string;
                    inviteId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EnvVarList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        /** Set environment variables (answers the whole list) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["EnvVarList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        /** @description The document's credential names mapped to credential ids of the workspace; a name not mapped here takes the workspace's credential of the same name and type */
                        credentials?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowImportResult"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowExport"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workflows/{workflowId}/queued-runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workflow's queued async runs in the order a worker claims them, each with its place and why it waits */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                };
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["QueuedRunList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeployResult"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Undeployed"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description The workflow is not deployed (WORKFLOW_NOT_DEPLOYED) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeploymentList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeployResult"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        triggerFilter?: ("api" | "webhook" | "schedule" | "manual" | "chat" | "queue")[];
                        active?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description The workflow has as many subscriptions as it may (LIMIT_EXCEEDED) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                410: components["responses"]["Gone"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        triggerFilter?: ("api" | "webhook" | "schedule" | "manual" | "chat" | "queue")[];
                        active?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SubscriptionResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryPage"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workflows/{workflowId}/webhooks/{subscriptionId}/deliveries/{deliveryId}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery of this subscription again (the same as the route without the subscription id) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    subscriptionId: string;
                    deliveryId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DeliveryResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                410: components["responses"]["Gone"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                query?: {
                    stream?: "true" | "false";
                };
                header?: {
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
                path: {
                    workflowId: string;
                };
                cookie?: never;
            };
            requestBody?: {
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteResult"];
                        "text/event-stream": string;
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description A run of the draft's singleton key is in flight (ALREADY_RUNNING: flow control's skip) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The run failed (?stream=false) */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workflows/{workflowId}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the agent conversation memories of a workflow (most recently updated first) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MemoryPage"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/workflows/{workflowId}/memories/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read an agent conversation memory: its messages, oldest first (the key URL-encoded) */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    cursor?: string;
                };
                header?: never;
                path: {
                    workflowId: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MemoryDetail"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Delete an agent conversation memory */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    workflowId: string;
                    key: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["FolderResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List credentials (secret values are write-only) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CredentialList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Store a credential */
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
                        /** @enum {string} */
                        type: "postgres" | "mysql" | "redis" | "amqp" | "mqtt" | "nats" | "smtp" | "http";
                        /** @description Fields per type: docs/api.md "Credentials" */
                        data: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CredentialResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/credentials/{credentialId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a credential (without its secrets) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CredentialResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Delete a credential */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Rename a credential or rotate its data */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        name?: string;
                        /** @description Merged over the stored data: send only the fields that change (null removes one) */
                        data?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CredentialResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/credentials/{credentialId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a connection with a credential and answer what the server said */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    credentialId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CredentialTestResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/connectors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List a workspace's OpenAPI connectors */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectorSummaryList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
            };
        };
        put?: never;
        /** Import an OpenAPI document as a connector */
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
                        /** @description An OpenAPI 3.0 or 3.1 document: JSON or YAML text, or the JSON object itself (at most 2 MB; internal $refs only) */
                        document: string | {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                201: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectorResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description A connector of that name exists in the workspace (CONNECTOR_NAME_TAKEN) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/connectors/{connectorId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read a connector and its operations */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    connectorId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ConnectorResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Delete a connector */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    connectorId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                204: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/mcp/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** List an MCP server's tools (streamable HTTP), as an agent block's mcp tool would be offered them */
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
                        url: string;
                        headers?: {
                            [key: string]: string;
                        };
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["McpToolList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                502: components["responses"]["BadGateway"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiKeyList"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreatedApiKeyResponse"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                    rerunOf?: string;
                    deploymentVersion?: string;
                    minDurationMs?: string;
                    maxDurationMs?: string;
                    minCost?: string;
                    maxCost?: string;
                    blockErrors?: "0" | "1" | "true" | "false";
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogPage"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                429: components["responses"]["TooManyRequests"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecutionDetail"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                429: components["responses"]["TooManyRequests"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LogDetail"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                429: components["responses"]["TooManyRequests"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of a workspace waiting for an approval or parked in a long wait (status=paused) */
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PausedRunList"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/executions/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-run, queued, the executions of a workspace that the logs filters select (each once); fromFailedBlock retries failed runs only */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description A repeat with the same key and body gets the first answer again (Idempotent-Replayed: true) instead of a second run; the same key with another body or mode is 409 IDEMPOTENCY_CONFLICT */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                };
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        workspaceId: string;
                        /** @description The logs API's filters (GET /api/v1/logs), as its query parameters: workflowIds, folderIds, triggers, level, startDate, endDate, executionId, parentExecutionId, rerunOf, deploymentVersion, minDurationMs, maxDurationMs, minCost, maxCost, blockErrors, model. Lists may be arrays or comma-separated text */
                        filter?: {
                            [key: string]: string | number | boolean | null | string[];
                        };
                        /** @description true: only failed runs are eligible, each retried from the block that failed; false (default): each runs again whole */
                        fromFailedBlock?: boolean;
                        /** @description At most this many executions, newest first (1–1000, default 100) */
                        limit?: number;
                    };
                };
            };
            responses: {
                /** @description Success */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunBatchAccepted"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/executions/rerun/{batchId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where each re-run of a bulk re-run stands (queued, running, succeeded, failed, skipped) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    batchId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunBatchProgress"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelAnswer"];
                    };
                };
                /** @description Asked to stop; still stopping */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelAnswer"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description The execution has already finished (EXECUTION_NOT_RUNNING) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ResumeAccepted"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description The execution is not waiting for an approval (EXECUTION_NOT_PAUSED) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/executions/{executionId}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run a finished execution again, whole or from a block (earlier blocks replayed from the log, not run); dryRun says what would run */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
                path: {
                    executionId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description Block id or name to run from; without it the whole workflow runs again */
                        fromBlock?: string;
                        /** @description Trigger input instead of the original's (checked against the Input Format) */
                        input?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description `original` (default): the version that ran; `active`: the active deployment; `draft`: the current draft (editors; sync only)
                         * @enum {string}
                         */
                        deployment?: "original" | "active" | "draft";
                        /**
                         * @description `sync` (default) answers when the run ends; `async` queues it
                         * @enum {string}
                         */
                        mode?: "sync" | "async";
                        /** @description Answer what would be replayed and what would run again, without running */
                        dryRun?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunResult"];
                    };
                };
                /** @description Queued (mode: async), or paused at an approval block */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunAccepted"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                408: components["responses"]["ExecutionTimeout"];
                /** @description The execution has not finished (EXECUTION_IN_PROGRESS); for retry, it did not fail (EXECUTION_NOT_FAILED); with deployment "active", the workflow is not deployed (WORKFLOW_NOT_DEPLOYED); a run of the singleton key is in flight (ALREADY_RUNNING: flow control's skip) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                410: components["responses"]["Gone"];
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The re-run failed */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/v1/executions/{executionId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-run a failed execution from the first block that failed (409 EXECUTION_NOT_FAILED when it did not fail) */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
                path: {
                    executionId: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "application/json": {
                        /** @description Trigger input instead of the original's (checked against the Input Format) */
                        input?: {
                            [key: string]: unknown;
                        };
                        /**
                         * @description `original` (default): the version that ran; `active`: the active deployment; `draft`: the current draft (editors; sync only)
                         * @enum {string}
                         */
                        deployment?: "original" | "active" | "draft";
                        /**
                         * @description `sync` (default) answers when the run ends; `async` queues it
                         * @enum {string}
                         */
                        mode?: "sync" | "async";
                        /** @description Answer what would be replayed and what would run again, without running */
                        dryRun?: boolean;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunResult"];
                    };
                };
                /** @description Queued (mode: async), or paused at an approval block */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunAccepted"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                408: components["responses"]["ExecutionTimeout"];
                /** @description The execution has not finished (EXECUTION_IN_PROGRESS); for retry, it did not fail (EXECUTION_NOT_FAILED); with deployment "active", the workflow is not deployed (WORKFLOW_NOT_DEPLOYED); a run of the singleton key is in flight (ALREADY_RUNNING: flow control's skip) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                410: components["responses"]["Gone"];
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The re-run failed */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RerunFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WorkflowStatus"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                header?: {
                    /** @description `async` queues the run and answers 202 with a task id (GET /api/jobs/{taskId}); anything else runs it now */
                    "X-Execution-Mode"?: components["parameters"]["ExecutionMode"];
                    /** @description An async run's priority, -100…100 (default: the workflow's flowControl.priority, else 0): a workspace's queued runs with a higher priority are claimed first; outside the range is 400 */
                    "X-Execution-Priority"?: components["parameters"]["ExecutionPriority"];
                    /** @description A repeat with the same key and body gets the first answer again (Idempotent-Replayed: true) instead of a second run; the same key with another body or mode is 409 IDEMPOTENCY_CONFLICT */
                    "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
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
                        /** @description with stream: true, also send agents' steps and tool calls as StreamEvent records */
                        streamEvents?: boolean;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description Queued (X-Execution-Mode: async), or paused at an approval block */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteAcceptedOrPaused"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                408: components["responses"]["ExecutionTimeout"];
                /** @description The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), a call with this Idempotency-Key is still running or was made with another body (IDEMPOTENCY_CONFLICT), the run was cancelled (EXECUTION_CANCELLED), or the workflow is a singleton with mode skip and a run for the key is in flight (ALREADY_RUNNING, with runningExecutionId) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The run failed */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UsageLimits"];
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JobStatus"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/webhooks/trigger/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Inbound webhook trigger (any content type; optional X-Sluice-Signature). The path may contain slashes. */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
                path: {
                    /** @description The webhook path configured on the trigger block; may contain slashes */
                    path: string;
                };
                cookie?: never;
            };
            requestBody?: {
                content: {
                    "*/*": unknown;
                };
            };
            responses: {
                /** @description Success */
                200: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["WebhookAccepted"];
                    };
                };
                /** @description The run was queued — a call over the throttle, or any call of a debounced workflow, when no response block answers it (docs/api.md 4.11) — or paused at an approval block */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteAcceptedOrPaused"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                404: components["responses"]["NotFound"];
                408: components["responses"]["ExecutionTimeout"];
                /** @description The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), the run was cancelled (EXECUTION_CANCELLED), or the workflow is debounced and a response block answers its webhook (DEBOUNCED) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The run failed */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecuteFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
        /** Chat with a deployed workflow (streams by default); no credentials needed when the chat is public */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
                    "X-Request-Id"?: components["parameters"]["RequestId"];
                };
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "X-Conversation-Id": components["headers"]["X-Conversation-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ChatResult"];
                        "text/event-stream": string;
                    };
                };
                /** @description The run paused at an approval block (stream: false) */
                202: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "X-Conversation-Id": components["headers"]["X-Conversation-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ExecutionPaused"];
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                402: components["responses"]["UsageLimitExceeded"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                408: components["responses"]["ExecutionTimeout"];
                /** @description The workflow is not deployed (WORKFLOW_NOT_DEPLOYED), the run was cancelled (EXECUTION_CANCELLED), a singleton run is in flight (ALREADY_RUNNING), or the workflow is debounced (DEBOUNCED) */
                409: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Error"];
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                429: components["responses"]["TooManyRequests"];
                /** @description The run failed (stream: false) */
                500: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        "X-Execution-Id": components["headers"]["X-Execution-Id"];
                        "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                        "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                        "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                        "X-Conversation-Id": components["headers"]["X-Conversation-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ChatFailure"];
                    };
                };
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
    "/api/files/{fileId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download an uploaded file through its signed URL (403 when the link is invalid or expired) */
        get: {
            parameters: {
                query: {
                    expires: string;
                    signature: string;
                };
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
                        "X-Request-Id": components["headers"]["X-Request-Id"];
                        [name: string]: unknown;
                    };
                    content: {
                        "application/octet-stream": string;
                    };
                };
                400: components["responses"]["BadRequest"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                503: components["responses"]["ServiceUnavailable"];
                /** @description Any other error (500 INTERNAL_ERROR) */
                default: {
                    headers: {
                        "X-Request-Id": components["headers"]["X-Request-Id"];
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
            /** @description With 409 ALREADY_RUNNING: the execution in flight for the singleton key */
            runningExecutionId?: string;
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
        /** @description A block type: its palette entry, its form and the schema of its config */
        BlockType: {
            type: string;
            label: string;
            /** @enum {string} */
            group: "Triggers" | "Blocks" | "Containers";
            description: string;
            /** @description The trigger kind that starts runs at this block; null for the others */
            trigger: ("api" | "webhook" | "schedule" | "manual" | "chat" | "queue") | null;
            /** @description Output fields always present, read as `<block.field>` */
            outputs: string[];
            fields: {
                key: string;
                label: string;
                /** @enum {string} */
                kind: "text" | "textarea" | "code" | "number" | "select" | "json" | "keyValue" | "conditions" | "inputFormat" | "assignments" | "workflow" | "inputMap" | "tools" | "credential" | "operation" | "operationParameters";
                options?: string[];
                placeholder?: string;
                help?: string;
                /** @description A `credential` field's accepted credential types */
                credentialTypes?: string[];
                /** @description Shown by the editor only when the block's chosen credential is of one of these types (a broker's own fields) */
                forCredentialTypes?: string[];
                /** @description Shown by the editor only for some values of the other fields */
                conditional: boolean;
            }[];
            /** @description What the editor puts in a new block of this type */
            defaultConfig: {
                [key: string]: unknown;
            };
            /** @description JSON Schema (2020-12) of the config once references are resolved; a field may hold a `<block.field>` reference */
            configSchema: {
                [key: string]: unknown;
            };
        };
        BlockTypeList: {
            data: components["schemas"]["BlockType"][];
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
            /** @description A workflow state (docs/workflows.md) */
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
            /** @description A workflow state (docs/workflows.md) */
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
            /** @description Stored credentials the blocks name (their `credentialId` is `{"credential": name}` in the state); never their data */
            credentials: {
                name: string;
                type: string;
            }[];
            /** @description Imported OpenAPI documents the API blocks' operations name (their `connectorId` is `{"connector": name}` in the state) */
            connectors: {
                name: string;
            }[];
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
        /** @description A chat answer (stream: false) of a run without a response block */
        ChatResult: {
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
            /** @description The conversation this answer belongs to */
            conversationId: string;
        };
        ChatFailure: {
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
            /** @description The conversation this answer belongs to */
            conversationId: string;
        };
        /** @description The final SSE record of a streamed chat answer */
        ChatStreamDone: {
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
            /** @description The conversation this answer belongs to */
            conversationId: string;
        };
        /** @description The answer of an inbound webhook whose run has no response block (a response block answers with its own status and body) */
        WebhookAccepted: {
            /** @constant */
            success: true;
            executionId: string;
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
        /** @description A re-run's answer: an execute answer with rerunOf (a response block answers with its own), or the dry run */
        RerunResult: {
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
            /** @description The execution this run re-ran */
            rerunOf: string;
        } | {
            rerunOf: string;
            /** @description The block the re-run would start from; null: the whole workflow */
            fromBlock: string | null;
            /** @description Blocks whose recorded output would be used: no call, no cost */
            replayed: string[];
            /** @description Blocks that would run again */
            willRun: {
                blockId: string;
                type: string;
                /** @description Calls the outside world (API other than GET, agent, sub-workflow, function) */
                sideEffects: boolean;
            }[];
        };
        RerunAccepted: {
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
            /** @description The execution this run re-ran */
            rerunOf: string;
        } | components["schemas"]["ExecutionPaused"];
        RerunFailure: {
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
            /** @description The execution this run re-ran */
            rerunOf: string;
        };
        /** @description A bulk re-run, queued */
        RerunBatchAccepted: {
            data: {
                /** @description GET /api/v1/executions/rerun/{batchId} follows it */
                batchId: string;
                /** @description Executions the filter matched (each at most once) */
                total: number;
                /** @description Re-runs queued (the rest could not be re-run) */
                queued: number;
            };
        };
        /** @description Where each re-run of a bulk re-run stands */
        RerunBatchProgress: {
            data: {
                /** @description GET /api/v1/executions/rerun/{batchId} follows it */
                batchId: string;
                /** @description Executions the filter matched (each at most once) */
                total: number;
                /** @description Re-runs not started yet */
                queued: number;
                /** @description Re-runs running (or paused at an approval) */
                running: number;
                succeeded: number;
                /** @description Re-runs that failed or were cancelled */
                failed: number;
                /** @description Matched executions that could not be re-run (reason on each) */
                skipped: number;
                /** @description Every re-run has finished or was skipped */
                done: boolean;
                executions: {
                    originalExecutionId: string;
                    /** @description The re-run; null when skipped */
                    executionId: string | null;
                    /** @enum {string} */
                    status: "queued" | "running" | "succeeded" | "failed" | "skipped";
                    /** @description Why it was skipped */
                    reason?: string;
                }[];
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
                /**
                 * @description approval: waits for a decision (resume it); wait: parked in a wait block until resumeAt (cannot be resumed early)
                 * @enum {string}
                 */
                kind: "approval" | "wait";
                blockId: string;
                message: string | null;
                /** @description ISO 8601 */
                pausedAt: string;
                timeoutAt: string | null;
                defaultDecision: ("approve" | "reject") | null;
                /** @description When a parked wait goes on (null for an approval) */
                resumeAt: string | null;
                /** @description Set when an agent's tool call waits (blockId is the agent's): the tool and the model's arguments */
                toolCall?: {
                    id: string;
                    name: string;
                    arguments: unknown;
                };
            }[];
        };
        QueuedRunList: {
            data: {
                executionId: string;
                /** @description ISO 8601 */
                queuedAt: string;
                /** @description When it is due: the earliest a worker may claim it */
                dueAt: string;
                priority: number;
                /** @description 1-based place among the workflow's queued runs, in the order a worker claims them */
                place: number;
                /**
                 * @description due: waiting for a worker; concurrency / singleton: its key has no free slot; throttled: its throttle key has no start free until dueAt; debounced: a debounce burst still taking calls, runs at dueAt; retry: its worker stopped or crashed, it runs again; scheduled: not due until dueAt
                 * @enum {string}
                 */
                reason: "due" | "concurrency" | "singleton" | "throttled" | "debounced" | "retry" | "scheduled";
                /** @description The flow control key value the reason is about (absent when the setting has no key) */
                key?: string;
            }[];
            /** @description How many runs of the workflow are queued (the list shows the first `limit`) */
            total: number;
        };
        /** @description An SSE chunk record */
        StreamChunk: {
            blockId: string;
            chunk: string;
        };
        /** @description With streamEvents: true, an agent's model call (step) or tool call as it starts (tool_call) and ends (tool_result) */
        StreamEvent: {
            blockId: string;
            /** @constant */
            event: "step";
            step: number;
            toolCalls: number;
            tokens: {
                prompt: number;
                completion: number;
                total: number;
            };
        } | {
            blockId: string;
            /** @constant */
            event: "tool_call";
            step: number;
            id: string;
            name: string;
            arguments: unknown;
        } | {
            blockId: string;
            /** @constant */
            event: "tool_result";
            step: number;
            id: string;
            name: string;
            result: unknown;
            error?: string;
            durationMs: number;
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
        /** @description A progress record of a manual run (SSE); the last one before [DONE] is a StreamDone */
        RunProgress: {
            /** @constant */
            event: "run_started";
            executionId: string;
            workflowId: string;
            /** @description ISO 8601 */
            startedAt: string;
        } | {
            /** @constant */
            event: "block_started";
            blockId: string;
            blockName: string;
            blockType: string;
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
            /** @description ISO 8601 */
            startedAt: string;
        } | {
            /** @constant */
            event: "chunk";
            blockId: string;
            chunk: string;
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
        } | {
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
            blockId: string;
            /** @constant */
            event: "step";
            step: number;
            toolCalls: number;
            tokens: {
                prompt: number;
                completion: number;
                total: number;
            };
        } | {
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
            blockId: string;
            /** @constant */
            event: "tool_call";
            step: number;
            id: string;
            name: string;
            arguments: unknown;
        } | {
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
            blockId: string;
            /** @constant */
            event: "tool_result";
            step: number;
            id: string;
            name: string;
            result: unknown;
            error?: string;
            durationMs: number;
        } | {
            /** @constant */
            event: "block_finished";
            blockId: string;
            blockName: string;
            blockType: string;
            /** @description The containers around the block and the iteration of each, outermost first */
            iterationPath: {
                containerId: string;
                /** @enum {string} */
                containerType: "loop" | "parallel";
                index: number;
            }[];
            output: {
                [key: string]: unknown;
            };
            error?: string;
            /** @description The edge handle a condition block chose */
            sourceHandle?: string;
            /** @description The error is an outcome the run goes on from */
            continueOnError?: boolean;
            /** @description ISO 8601 */
            startedAt: string;
            /** @description ISO 8601 */
            endedAt: string;
            durationMs: number;
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
            /** @description Model blocks: the model that answered */
            model?: string;
            tokens?: {
                prompt: number;
                completion: number;
                total: number;
            };
            cost?: number | {
                input: number;
                output: number;
                total: number;
            };
            /** @description References to blocks that had not run (resolved to null) */
            unresolvedReferences?: string[];
            /** @description The edge handle the block chose (condition blocks), when not the default */
            sourceHandle?: string;
            /** @description The block failed, and the run went on from its error */
            continueOnError?: boolean;
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
            /** @description Blocks that reported an error in a run that still succeeded (an API block answered 500); 0 for any other run, and for logs written before the count was kept */
            blockErrorCount: number;
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
                /** @description Blocks that reported an error in a run that still succeeded (an API block answered 500); 0 for any other run, and for logs written before the count was kept */
                blockErrorCount: number;
                /** @enum {string} */
                status: "success" | "error" | "cancelled";
                /** @description The run whose workflow block started this one (a sub-workflow) */
                parentExecutionId: string | null;
                /** @description X-Request-Id of the request that started the run (null for schedules) */
                requestId: string | null;
                /** @description Why the run failed or was stopped; null when it succeeded */
                error: string | null;
                /** @description For a run that paused for an approval (README "Human approval") */
                approvals: {
                    pauses: number;
                    /** @description Time spent waiting for decisions (not in totalDurationMs) */
                    pausedMs: number;
                    firstStartedAt: string;
                    /** @description By approval block id, or for an agent tool call `<blockId>:<step>:<call id>` */
                    decisions: {
                        [key: string]: {
                            approved: boolean;
                            data: unknown;
                            decidedBy: string | null;
                            /** @description ISO 8601 */
                            decidedAt: string;
                            /** @description Set for a decision about an agent's tool call (its key is `<blockId>:<step>:<call id>`) */
                            toolCall?: {
                                blockId: string;
                                id: string;
                                name: string;
                            };
                        };
                    };
                } | null;
                /** @description Set on a re-run: the execution it re-ran */
                rerunOf: string | null;
                /** @description Set on a re-run from a block: that block (null when it ran whole) */
                rerunFromBlock: string | null;
                /** @description How long the run waited before it started (queued, or for a flow control slot) */
                queuedMs: number | null;
                /** @description Set when the workflow's flow control held the run back (docs/workflows.md "Flow control") */
                flowControl: {
                    /** @description concurrency, singleton, throttle or debounce */
                    reason: string;
                } | null;
                /** @description The re-runs of this execution, oldest first (GET /api/v1/logs?rerunOf= lists them as logs) */
                reruns: {
                    executionId: string;
                    status: string;
                    /** @description ISO 8601 */
                    startedAt: string;
                }[];
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
            /** @description A workflow state (docs/workflows.md) */
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
        SubscriptionList: {
            data: components["schemas"]["Subscription"][];
        };
        SubscriptionResponse: {
            data: components["schemas"]["Subscription"];
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
        MemoryPage: {
            data: {
                key: string;
                messageCount: number;
                /** @description ISO 8601 */
                createdAt: string;
                /** @description ISO 8601: when its last message was added (log retention counts from here) */
                updatedAt: string;
            }[];
            nextCursor: string | null;
        };
        MemoryDetail: {
            data: {
                key: string;
                messageCount: number;
                /** @description ISO 8601 */
                createdAt: string;
                /** @description ISO 8601: when its last message was added (log retention counts from here) */
                updatedAt: string;
                /** @description Oldest first */
                messages: {
                    /** @description Position in the conversation, from 1 */
                    seq: number;
                    /** @enum {string} */
                    role: "user" | "assistant" | "tool";
                    content: string;
                    /** @description assistant: the tools it called */
                    toolCalls?: {
                        id: string;
                        name: string;
                        /** @description JSON text, as the model sent it */
                        arguments: string;
                    }[];
                    /** @description tool: the call this result answers */
                    toolCallId?: string;
                    toolName?: string;
                    isError?: boolean;
                    /** @description The run that added it */
                    executionId: string;
                    /** @description ISO 8601 */
                    createdAt: string;
                }[];
            };
            /** @description More messages follow: pass it as `cursor` */
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
                /** @description Blocks that reported an error in a run that still succeeded; absent from events made before it was sent */
                blockErrorCount?: number;
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
        Health: {
            /** @constant */
            status: "ok";
        };
        /** @description 200 with status ok when every check passes, else 503 with status unavailable */
        Readiness: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            checks: {
                database: {
                    ok: boolean;
                    /** @description Why the check failed, or what was not checked */
                    message?: string;
                };
                migrations: {
                    ok: boolean;
                    /** @description Why the check failed, or what was not checked */
                    message?: string;
                };
                worker: {
                    ok: boolean;
                    /** @description Why the check failed, or what was not checked */
                    message?: string;
                };
            };
        };
        Workspace: {
            id: string;
            name: string;
            /** @description The plan of the workspace's owner (its limits follow the owner) */
            plan: string;
            ownerId: string;
            /**
             * @description The caller's role in the workspace
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @description ISO 8601 */
            createdAt: string;
        };
        WorkspaceList: {
            data: components["schemas"]["Workspace"][];
        };
        WorkspaceResponse: {
            data: components["schemas"]["Workspace"];
        };
        Member: {
            userId: string;
            email: string;
            /**
             * @description owner, admin, editor or viewer (docs/api.md "Members and invites")
             * @enum {string}
             */
            role: "viewer" | "editor" | "admin" | "owner";
            /** @description ISO 8601 */
            joinedAt: string;
        };
        MemberList: {
            data: components["schemas"]["Member"][];
        };
        MemberResponse: {
            data: components["schemas"]["Member"];
        };
        /** @description The member as added (an address without an account gets one, without a password); a member added again keeps the date they joined */
        AddedMember: {
            userId: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            /** @description ISO 8601 */
            joinedAt: string;
        };
        AddedMemberResponse: {
            data: components["schemas"]["AddedMember"];
        };
        /** @description A pending invite link (the token is only in the answer that created it) */
        Invite: {
            id: string;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            /** @description Only this address may accept */
            email: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            expiresAt: string;
        };
        InviteList: {
            data: components["schemas"]["Invite"][];
        };
        /** @description The invite as created, with its one-time link */
        CreatedInvite: {
            id: string;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            /** @description Only this address may accept */
            email: string | null;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            expiresAt: string;
            /** @description The link to hand over, `<base>/invite?token=…`: shown once */
            url: string;
        };
        CreatedInviteResponse: {
            data: components["schemas"]["CreatedInvite"];
        };
        /** @description What an invite link offers, for the page that accepts it */
        InvitePreview: {
            workspaceId: string;
            workspaceName: string;
            /** @enum {string} */
            role: "admin" | "editor" | "viewer";
            /** @description When set, only this address may accept */
            email: string | null;
            /** @description ISO 8601 */
            expiresAt: string;
        };
        /** @description An environment variable: its value is write-only and never returned */
        EnvVar: {
            name: string;
            /** @description ISO 8601 */
            updatedAt: string;
        };
        EnvVarList: {
            data: components["schemas"]["EnvVar"][];
        };
        UsageLimits: {
            /** @constant */
            success: true;
            rateLimit: {
                sync: {
                    /** @description The window is used up (never for an unlimited plan) */
                    isLimited: boolean;
                    /** @description null: unlimited on this plan */
                    limit: number | null;
                    remaining: number | null;
                    /** @description ISO 8601 */
                    resetAt: string;
                };
                async: {
                    /** @description The window is used up (never for an unlimited plan) */
                    isLimited: boolean;
                    /** @description null: unlimited on this plan */
                    limit: number | null;
                    remaining: number | null;
                    /** @description ISO 8601 */
                    resetAt: string;
                };
                /**
                 * @description How the caller signed this request: an API key, or the web app session
                 * @enum {string}
                 */
                authType: "api" | "session";
            };
            usage: {
                currentPeriodCost: number;
                limit: number | null;
                plan: string;
            };
        };
        Folder: {
            id: string;
            workspaceId: string;
            /** @description null: at the workspace root */
            parentId: string | null;
            name: string;
            /** @description ISO 8601 */
            createdAt: string;
        };
        FolderList: {
            data: components["schemas"]["Folder"][];
        };
        FolderResponse: {
            data: components["schemas"]["Folder"];
        };
        Credential: {
            id: string;
            workspaceId: string;
            name: string;
            /** @enum {string} */
            type: "postgres" | "mysql" | "redis" | "amqp" | "mqtt" | "nats" | "smtp" | "http";
            /** @description The data's fields that are not secret (host, port, user, database, scheme, …) */
            fields: {
                [key: string]: unknown;
            };
            /** @description Secret fields that hold a value (password, token, clientSecret, value); their values are never returned */
            secretsSet: string[];
            /** @description Goes up on every change of the data */
            version: number;
            /** @description ISO 8601 */
            createdAt: string;
            /** @description ISO 8601 */
            updatedAt: string;
        };
        CredentialList: {
            data: components["schemas"]["Credential"][];
        };
        CredentialResponse: {
            data: components["schemas"]["Credential"];
        };
        CredentialTest: {
            ok: boolean;
            /** @description What the server answered: its version or greeting, or its error */
            message: string;
            durationMs: number;
        };
        CredentialTestResponse: {
            data: components["schemas"]["CredentialTest"];
        };
        ConnectorSummary: {
            id: string;
            workspaceId: string;
            name: string;
            /** @description The document's info.title */
            title: string;
            /** @description The document's info.version */
            version: string;
            /** @description Server URLs with their variables at their defaults; the API block calls the first unless its `url` is set */
            servers: string[];
            operationCount: number;
            /** @description ISO 8601 */
            createdAt: string;
        };
        ConnectorSummaryList: {
            data: components["schemas"]["ConnectorSummary"][];
        };
        Connector: {
            id: string;
            workspaceId: string;
            name: string;
            /** @description The document's info.title */
            title: string;
            /** @description The document's info.version */
            version: string;
            /** @description Server URLs with their variables at their defaults; the API block calls the first unless its `url` is set */
            servers: string[];
            operationCount: number;
            /** @description ISO 8601 */
            createdAt: string;
            operations: {
                /** @description The document's operationId, or one derived from the method and path (`get_pets_petId`) */
                operationId: string;
                /** @description True when the document gave no operationId */
                derivedId?: boolean;
                /** @enum {string} */
                method: "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
                path: string;
                summary?: string;
                description?: string;
                parameters: {
                    name: string;
                    /** @enum {string} */
                    in: "path" | "query" | "header";
                    required: boolean;
                    description?: string;
                    /** @description JSON Schema, $refs resolved (a recursive schema keeps its $ref where it recurses) */
                    schema?: {
                        [key: string]: unknown;
                    };
                    explode?: boolean;
                }[];
                /** @description Given to the API block as `parameters.body` */
                requestBody?: {
                    required: boolean;
                    contentType: string;
                    /** @description JSON Schema, $refs resolved (a recursive schema keeps its $ref where it recurses) */
                    schema?: {
                        [key: string]: unknown;
                    };
                    description?: string;
                };
            }[];
        };
        ConnectorResponse: {
            data: components["schemas"]["Connector"];
        };
        McpTool: {
            name: string;
            description: string;
            /** @description The tool's arguments, a JSON Schema (its MCP inputSchema) */
            parameters: {
                [key: string]: unknown;
            };
        };
        McpToolList: {
            data: components["schemas"]["McpTool"][];
        };
        ApiKey: {
            id: string;
            name: string;
            /** @description The one workspace the key reaches; null for a personal key */
            workspaceId: string | null;
            /** @enum {string} */
            scope: "personal" | "workspace";
            /** @description The prefix and last four characters: only a hash of the key is stored */
            hint: string;
            /** @description ISO 8601 */
            createdAt: string;
            lastUsedAt: string | null;
        };
        ApiKeyList: {
            data: components["schemas"]["ApiKey"][];
        };
        /** @description A new API key, with the key itself this one time */
        CreatedApiKey: {
            id: string;
            name: string;
            /** @description The one workspace the key reaches; null for a personal key */
            workspaceId: string | null;
            /** @enum {string} */
            scope: "personal" | "workspace";
            /** @description The prefix and last four characters: only a hash of the key is stored */
            hint: string;
            /** @description ISO 8601 */
            createdAt: string;
            lastUsedAt: string | null;
            /** @description The secret key: in this answer only, it cannot be read again */
            key: string;
        };
        CreatedApiKeyResponse: {
            data: components["schemas"]["CreatedApiKey"];
        };
        AuthOptions: {
            /** @description SLUICE_ALLOW_SIGNUP */
            signupAllowed: boolean;
            /** @description No user has a password yet: the owner account is still to be created */
            setupNeeded: boolean;
        };
        SetupState: {
            needed: boolean;
            tokenValid: boolean;
            /** @description SLUICE_ADMIN_EMAIL, only while setup is needed and the token is valid */
            suggestedEmail?: string;
        };
        /** @description A new session: the session cookie is set on the answer, never returned in the body */
        SignedIn: {
            user: {
                id: string;
                email: string;
                plan: string;
            };
            /** @description Send it as X-CSRF-Token on the session's state-changing requests */
            csrfToken: string;
            /** @description When the session ends if it is not used (use moves it forward, within an absolute cap) */
            expiresAt: string;
        };
        /** @description The signed-in user, the CSRF token and the workspaces the user reaches */
        Session: {
            user: {
                id: string;
                email: string;
                plan: string;
            };
            /** @description Send it as X-CSRF-Token on the session's state-changing requests */
            csrfToken: string;
            /** @description When the session ends if it is not used (use moves it forward, within an absolute cap) */
            expiresAt: string;
            workspaces: {
                id: string;
                name: string;
                plan: string;
                /**
                 * @description owner, admin, editor or viewer (docs/api.md "Members and invites")
                 * @enum {string}
                 */
                role: "viewer" | "editor" | "admin" | "owner";
            }[];
        };
    };
    responses: {
        /** @description VALIDATION_ERROR (details name each problem), or INVALID_JSON for an unreadable body */
        BadRequest: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNAUTHORIZED: missing, invalid or revoked credentials */
        Unauthorized: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description USAGE_LIMIT_EXCEEDED: the workspace owner's usage limit for the period is reached */
        UsageLimitExceeded: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description FORBIDDEN: no access to that workspace, the caller's role there does not allow it ("Viewers cannot deploy workflows"), or a session request without X-CSRF-Token */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description NOT_FOUND: no such resource (or none the caller can see) */
        NotFound: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description EXECUTION_TIMEOUT: the run took longer than the execution time-out */
        ExecutionTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request conflicts with the current state (code says which) */
        Conflict: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INVITE_EXPIRED, INVITE_USED (the invite link cannot be used any more) or EXECUTION_SNAPSHOT_GONE (what a re-run needs of that execution is no longer kept), EXECUTION_LOG_GONE (a redelivery of an event whose log retention deleted) */
        Gone: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description PAYLOAD_TOO_LARGE: the request body is over the limit */
        PayloadTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description UNSUPPORTED_MEDIA_TYPE: send the body as application/json */
        UnsupportedMediaType: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description RATE_LIMIT_EXCEEDED: wait Retry-After seconds (X-RateLimit-* on execution and logs limits); on runs also CONCURRENCY_LIMIT: the workflow's concurrency limit for that key is reached (flow control), try again after Retry-After; THROTTLED: the workflow's throttle allows no more starts for that key in its period, Retry-After says when the next frees */
        TooManyRequests: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description MCP_SERVER_UNREACHABLE: a server the request names could not be reached or did not answer as one */
        BadGateway: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A backing service is unavailable; try again later: FILE_STORAGE_UNAVAILABLE (file storage), READ_REPLICA_UNAVAILABLE (the read replica of the logs API, DATABASE_READ_URL) */
        ServiceUnavailable: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description `async` queues the run and answers 202 with a task id (GET /api/jobs/{taskId}); anything else runs it now */
        ExecutionMode: "sync" | "async";
        /** @description A repeat with the same key and body gets the first answer again (Idempotent-Replayed: true) instead of a second run; the same key with another body or mode is 409 IDEMPOTENCY_CONFLICT */
        IdempotencyKey: string;
        /** @description An async run's priority, -100…100 (default: the workflow's flowControl.priority, else 0): a workspace's queued runs with a higher priority are claimed first; outside the range is 400 */
        ExecutionPriority: number;
        /** @description Your id for this request: echoed in the X-Request-Id response header and kept on the execution log */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request id: the caller's own X-Request-Id when it is 1–128 characters of A-Z a-z 0-9 . _ : -, else a new one */
        "X-Request-Id": string;
        /** @description The execution this answer is about (its log is GET /api/v1/logs/executions/{id}) */
        "X-Execution-Id": string;
        /** @description Requests allowed per one-minute window on the plan (absent when the plan is unlimited) */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current window */
        "X-RateLimit-Remaining": number;
        /** @description When the current window ends (ISO 8601) */
        "X-RateLimit-Reset": string;
        /** @description Seconds to wait before trying again */
        "Retry-After": number;
        /** @description The conversation this chat answer belongs to */
        "X-Conversation-Id": string;
        /** @description `true` when this is the stored answer of an earlier call with the same Idempotency-Key */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
