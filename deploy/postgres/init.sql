-- One database and one role per service: no service can read another's tables.
-- Passwords come from the environment of the postgres container (see docker-compose.yml).
\set auth_password `echo "$AUTH_DB_PASSWORD"`
CREATE ROLE huddle_auth LOGIN PASSWORD :'auth_password';
CREATE DATABASE huddle_auth OWNER huddle_auth;
REVOKE ALL ON DATABASE huddle_auth FROM PUBLIC;

\set catalog_password `echo "$CATALOG_DB_PASSWORD"`
CREATE ROLE huddle_catalog LOGIN PASSWORD :'catalog_password';
CREATE DATABASE huddle_catalog OWNER huddle_catalog;
REVOKE ALL ON DATABASE huddle_catalog FROM PUBLIC;

\set games_password `echo "$GAMES_DB_PASSWORD"`
CREATE ROLE huddle_games LOGIN PASSWORD :'games_password';
CREATE DATABASE huddle_games OWNER huddle_games;
REVOKE ALL ON DATABASE huddle_games FROM PUBLIC;

\set betting_password `echo "$BETTING_DB_PASSWORD"`
CREATE ROLE huddle_betting LOGIN PASSWORD :'betting_password';
CREATE DATABASE huddle_betting OWNER huddle_betting;
REVOKE ALL ON DATABASE huddle_betting FROM PUBLIC;

\set chat_password `echo "$CHAT_DB_PASSWORD"`
CREATE ROLE huddle_chat LOGIN PASSWORD :'chat_password';
CREATE DATABASE huddle_chat OWNER huddle_chat;
REVOKE ALL ON DATABASE huddle_chat FROM PUBLIC;

\set notify_password `echo "$NOTIFY_DB_PASSWORD"`
CREATE ROLE huddle_notify LOGIN PASSWORD :'notify_password';
CREATE DATABASE huddle_notify OWNER huddle_notify;
REVOKE ALL ON DATABASE huddle_notify FROM PUBLIC;

\set purchases_password `echo "$PURCHASES_DB_PASSWORD"`
CREATE ROLE huddle_purchases LOGIN PASSWORD :'purchases_password';
CREATE DATABASE huddle_purchases OWNER huddle_purchases;
REVOKE ALL ON DATABASE huddle_purchases FROM PUBLIC;

\set moderation_password `echo "$MODERATION_DB_PASSWORD"`
CREATE ROLE huddle_moderation LOGIN PASSWORD :'moderation_password';
CREATE DATABASE huddle_moderation OWNER huddle_moderation;
REVOKE ALL ON DATABASE huddle_moderation FROM PUBLIC;

\set media_password `echo "$MEDIA_DB_PASSWORD"`
CREATE ROLE huddle_media LOGIN PASSWORD :'media_password';
CREATE DATABASE huddle_media OWNER huddle_media;
REVOKE ALL ON DATABASE huddle_media FROM PUBLIC;

\set search_password `echo "$SEARCH_DB_PASSWORD"`
CREATE ROLE huddle_search LOGIN PASSWORD :'search_password';
CREATE DATABASE huddle_search OWNER huddle_search;
REVOKE ALL ON DATABASE huddle_search FROM PUBLIC;
-- earthdistance is not a trusted extension, so the superuser creates it for search's spatial index
-- (search's migration only checks that it exists).
\connect huddle_search
CREATE EXTENSION IF NOT EXISTS cube;
CREATE EXTENSION IF NOT EXISTS earthdistance;
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gist;
