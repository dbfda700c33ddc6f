import { get, group, post, type RouteGroup } from '../../table';
import { anyone, signedInOnly } from './route-chains';
import * as federation from './federation';
import * as markdown from './markdown';
import * as misc from './misc';
import * as signing from './signing';
import * as templates from './templates';

// Instance-wide answers: version, signing keys, federation, settings, templates and markup rendering.

export const miscRoutes: RouteGroup[] = [
  group({ name: 'anyone', guards: anyone }, [
    get('/version', ['miscellaneous', 'getVersion', 'Returns the version of the server'], misc.getVersion),
    get('/signing-key.gpg', ['miscellaneous', 'getSigningKey', 'Get default signing-key.gpg'], signing.signingKeyGpg),
    get('/signing-key.pub', ['miscellaneous', 'getSigningKeySSH', 'Get default signing-key.pub'], signing.signingKeySsh),
    get('/nodeinfo', ['miscellaneous', 'getNodeInfo', 'Returns the nodeinfo of the Gitea application'], federation.federationOn, federation.getNodeInfo),
    get('/activitypub/user-id/{user-id}', ['activitypub', 'activitypubPerson', 'Returns the Person actor for a user'], federation.federationOn, federation.getPerson),
    post('/activitypub/user-id/{user-id}/inbox', ['activitypub', 'activitypubPersonInbox', 'Send to the inbox'], federation.federationOn, federation.postInbox),
    get('/settings/api', ['settings', 'getGeneralAPISettings', 'Get instance\'s global settings for api'], misc.getSettings('api')),
    get('/settings/attachment', ['settings', 'getGeneralAttachmentSettings', 'Get instance\'s global settings for Attachment'], misc.getSettings('attachment')),
    get('/settings/repository', ['settings', 'getGeneralRepositorySettings', 'Get instance\'s global settings for repositories'], misc.getSettings('repository')),
    get('/settings/ui', ['settings', 'getGeneralUISettings', 'Get instance\'s global settings for ui'], misc.getSettings('ui')),
    get('/gitignore/templates', ['miscellaneous', 'listGitignoresTemplates', 'Returns a list of all gitignore templates'], templates.gitignoreList),
    get('/gitignore/templates/{name}', ['miscellaneous', 'getGitignoreTemplateInfo', 'Returns information about a gitignore template'], templates.gitignoreInfo),
    get('/licenses', ['miscellaneous', 'listLicenseTemplates', 'Returns a list of all license templates'], templates.licenseList),
    get('/licenses/{name}', ['miscellaneous', 'getLicenseTemplateInfo', 'Returns information about a license template'], templates.licenseInfo),
    get('/label/templates', ['miscellaneous', 'listLabelTemplates', 'Returns a list of all label templates'], templates.labelTemplateList),
    get('/label/templates/{name}', ['miscellaneous', 'getLabelTemplateInfo', 'Returns all labels in a template'], templates.labelTemplateInfo),
  ]),
  group({ name: 'signed in only', guards: signedInOnly }, [
    post('/markdown', ['miscellaneous', 'renderMarkdown', 'Render a markdown document as HTML'], markdown.markdown),
    post('/markdown/raw', ['miscellaneous', 'renderMarkdownRaw', 'Render raw markdown as HTML'], markdown.markdownRaw),
    post('/markup', ['miscellaneous', 'renderMarkup', 'Render a markup document as HTML'], markdown.markup),
  ]),
];
