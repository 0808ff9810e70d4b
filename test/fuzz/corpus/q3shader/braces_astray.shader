textures/a/b{
	{ map x.tga }
}
}
{ surfaceparm sky }
"textures/a/b" {
