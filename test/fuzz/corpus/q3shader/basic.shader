// a lit wall, an alpha-tested fence, a glow, a sky and a liquid
textures/a/b
{
	qer_editorimage textures/a/b.tga
	surfaceparm nomarks
	{
		map $lightmap
		rgbGen identity
	}
	{
		map textures/a/b.tga
		blendFunc GL_DST_COLOR GL_ZERO
		tcMod scale 2 0.5
	}
}
textures/a/fence
{
	cull none
	surfaceparm trans
	{ map textures/a/fence.tga alphaFunc GE128 depthWrite }
	{ map $lightmap blendfunc filter depthFunc equal }
}
textures/a/glow
{
	surfaceparm nolightmap
	{
		animMap 4 textures/a/g1.tga textures/a/g2.tga
		blendFunc add
		rgbGen wave sin 0.5 0.5 0 1
	}
}
sky
{
	surfaceparm sky
	skyParms env/space 512 -
	{ map textures/skies/clouds.jpg tcMod scale 3 3 tcMod scroll 0.1 0 }
}
/* a block comment
   over lines */ textures/a/water { surfaceparm trans deformVertexes wave 64 sin 0 2 0 1 { clampmap "textures/a/water.jpg" blendFunc blend } }
